import { registerBuiltinAlgorithms } from '../../train/builtin-algorithms.ts';

// The test process is an entry point like the command line: it registers the
// built-in training algorithms once, before any test file runs (processes the
// tests start register them themselves, as their entry points do).
registerBuiltinAlgorithms();
