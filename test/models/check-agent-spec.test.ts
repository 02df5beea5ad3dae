import { describe, expect, it } from 'vitest';
import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import { AgentSpecError, checkAgentSpec } from '../../agents/spec.ts';
import { PolicyFileError } from '../../models/errors.ts';

// The kinds that load a network (`policy:`, `az:`, ...), as the command line registers them.
registerNetworkKinds();

// A tournament checks its specs in its own thread before its worker threads make
// the agents (whose errors would arrive there without their class).
describe('checkAgentSpec', () => {
  it('accepts every kind of spec that createAgent can make', async () => {
    for (const spec of [
      'random',
      'minimax:t=50ms',
      'ext:python3 engine.py',
      'policy:models/pretrained',
      'az:models/pretrained,t=50ms,c=1',
      'minimax:4,eval=models/pretrained,k=8',
    ]) {
      await expect(checkAgentSpec(spec)).resolves.toBeUndefined();
    }
  });

  it('throws the typed error createAgent would throw, without making the agent', async () => {
    await expect(checkAgentSpec('minimax:0')).rejects.toThrow(AgentSpecError);
    await expect(checkAgentSpec('minimax:4,minimax:6')).rejects.toThrow(
      /minimax takes one depth or time, and options after a comma only as minimax:t=50ms,eval=PATH\[,k=16\]\[,cache=16\] or minimax:t=50ms,solve=1/,
    );
    await expect(checkAgentSpec('policy:/nonexistent/policy.json')).rejects.toThrow(
      PolicyFileError,
    );
    await expect(checkAgentSpec('az:models/pretrained,sim=4')).rejects.toThrow(AgentSpecError);
    await expect(checkAgentSpec('az:/nonexistent,t=50ms')).rejects.toThrow(PolicyFileError);
    await expect(checkAgentSpec('minimax:t=50ms,eval=models/pretrained,k=-1')).rejects.toThrow(
      /k must be a number >= 0/,
    );
  });
});
