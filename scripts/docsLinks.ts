/** A link in a Markdown page: its target as written and the 1-based line it is on. */
export interface MarkdownLink {
  target: string;
  line: number;
}

/** Inline links and images (`[text](target)`, `![alt](target)`) outside fenced code blocks. */
export function markdownLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  let fenced = false;
  text.split('\n').forEach((content, index) => {
    if (content.trimStart().startsWith('```')) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    const withoutCode = content.replace(/`[^`]*`/g, '');
    for (const match of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      links.push({ target: match[1]!, line: index + 1 });
    }
  });
  return links;
}

/** GitHub's heading anchors of a page: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const content of text.split('\n')) {
    if (content.trimStart().startsWith('```')) {
      fenced = !fenced;
      continue;
    }
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(content);
    if (!heading) continue;
    const base = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}
