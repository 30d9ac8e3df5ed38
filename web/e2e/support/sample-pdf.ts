/**
 * Builds small, valid PDFs for tests: one page per entry of `pages`, each
 * line set in Helvetica under a coloured band (so a rendered page is never
 * blank), with a correct cross-reference table so any reader (pdf.js, the
 * server's text extraction) opens it without repair.
 */
export function samplePdf(pages: string[][], options: { title?: string } = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string) => {
    objects.push(body);
    return objects.length; // object number
  };
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

  const catalog = add(""); // filled in below
  const pagesObj = add("");
  const font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  const kids: number[] = [];
  pages.forEach((lines, i) => {
    const text = lines.map((l, j) => `${j === 0 ? "" : "T* "}(${esc(l)}) Tj`).join("\n");
    const stream = [
      "0.06 0.46 0.43 rg 54 740 504 10 re f",
      "0 g BT /F1 13 Tf 18 TL 72 700 Td",
      text,
      "ET",
      `BT /F1 9 Tf 72 40 Td (${esc(options.title ?? "Sample")} - page ${i + 1} of ${pages.length}) Tj ET`,
    ].join("\n");
    const content = add(`<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  });
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;

  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** `n` pages of filler text, each naming its page, for size and speed tests. */
export function fillerPages(n: number, linesPerPage = 30): string[][] {
  return Array.from({ length: n }, (_, p) =>
    Array.from({ length: linesPerPage }, (_, l) => `Page ${p + 1}, line ${l + 1}: Fairbalance renders every page of this document on demand.`),
  );
}
