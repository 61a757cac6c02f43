import type { RowProblem } from './import.ts';

/** One problem of a file's report as a line of text: `line 12, amount: Invalid Amount`. */
export function describeProblem(
  problem: Pick<RowProblem, 'problem' | 'field'> & { line?: number | undefined },
  say: (key: string) => string,
): string {
  const where = [problem.line !== undefined ? `line ${problem.line}` : '', problem.field ?? '']
    .filter((part) => part.length > 0)
    .join(', ');
  return where ? `${where}: ${say(problem.problem)}` : say(problem.problem);
}
