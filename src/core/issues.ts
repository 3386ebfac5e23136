/**
 * How every schema failure is written, everywhere (engines, settings, both APIs, replay files):
 * one line per issue, "where.path: message", e.g. "decks.p1.cards.0.count: Too small".
 */

export interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

/** One issue under `where` (the input that failed; '' for none); `root` names an issue of the whole input. */
export function issueLine(issue: Issue, where = '', root = '(root)'): string {
  const at = issue.path.map(String).join('.');
  return `${where && at ? `${where}.${at}` : where || at || root}: ${issue.message}`;
}

/** Every issue, as issueLine writes each. */
export function issueLines(issues: readonly Issue[], where = '', root = '(root)'): string[] {
  return issues.map((i) => issueLine(i, where, root));
}
