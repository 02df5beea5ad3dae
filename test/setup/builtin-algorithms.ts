import { registerBuiltinAlgorithms } from '../../train/builtin-algorithms.ts';

// A test file that trains, or reads training configs, is an entry point like the
// command line: it imports this first, which registers the built-in training
// algorithms (processes the tests start register them themselves, as their entry
// points do). The other files do without: the algorithms' modules cost a third of
// a second to load in each file.
registerBuiltinAlgorithms();
