() => {
  // Every word on the page (letters and digits, soft hyphens inside) that a line break cuts
  // anywhere but at one of its soft hyphens. URLs and tokens (an address shown to copy) are no
  // words: they may break anywhere.
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const lineOf = (node, at) => {
    range.setStart(node, at); range.setEnd(node, at + 1);
    // the last box: a letter right after a soft hyphen also reports the hyphen drawn at the
    // end of the line before
    const rect = [...range.getClientRects()].filter((r) => r.width > 0).pop();
    return rect ? Math.round(rect.top + rect.height / 2) : null;
  };
  while (walker.nextNode()) {
    const node = walker.currentNode, parent = node.parentElement;
    if (!parent || parent.closest("script, style, [hidden]") || node.data.includes("://")) continue;
    for (const match of node.data.matchAll(/[\p{L}\p{N}][\p{L}\p{N}\u00ad]+/gu)) {
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
                            .map((r) => Math.round(r.top)));
      if (lines.size < 2) continue;
      let last = null;
      for (let i = 0; i < match[0].length; i++) {
        if (match[0][i] === "\u00ad") continue;
        const line = lineOf(node, match.index + i);
        if (last !== null && line !== null && line !== last.line
            && match[0][i - 1] !== "\u00ad") {
          found.push(`${match[0].replaceAll("\u00ad", "")} in <${parent.tagName.toLowerCase()}`
                     + ` class="${parent.className}">`);
          break;
        }
        if (line !== null) last = {line};
      }
    }
  }
  return [...new Set(found)];
}
