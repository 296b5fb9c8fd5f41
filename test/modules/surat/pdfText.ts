/**
 * Just enough of PDF to read back the text Chromium (Skia) writes: inflate the FlateDecode streams,
 * read each font's ToUnicode CMap, and decode the hex strings of `Tj`/`TJ` in the content streams.
 * Text runs of one BT…ET block are joined, so a number split across runs reads back whole.
 */
const latin1 = (bytes: Uint8Array) => {
  let s = "";
  for (const b of bytes) {
    s += String.fromCharCode(b);
  }
  return s;
};

async function inflate(raw: string): Promise<string> {
  const bytes = Uint8Array.from(raw, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return latin1(new Uint8Array(await new Response(stream).arrayBuffer()));
}

function parseCmap(text: string): Map<number, string> {
  const map = new Map<number, string>();
  const hex = (h: string) => Number.parseInt(h, 16);
  const uni = (h: string) => String.fromCharCode(...(h.match(/.{4}/g) ?? []).map(hex));
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const m of (block[1] ?? "").matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) {
      map.set(hex(m[1] ?? ""), uni(m[2] ?? ""));
    }
  }
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of (block[1] ?? "").matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) {
      const start = hex(m[1] ?? "");
      const end = hex(m[2] ?? "");
      const first = hex(m[3] ?? "");
      for (let g = start; g <= end; g++) {
        map.set(g, String.fromCharCode(first + g - start));
      }
    }
  }
  return map;
}

export async function pdfText(pdf: Uint8Array): Promise<string> {
  const text = latin1(pdf);
  const objects = new Map<string, { dict: string; stream: string | null }>();
  for (const m of text.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const body = m[2] ?? "";
    const s = /stream\r?\n([\s\S]*)\r?\nendstream/.exec(body);
    const dict = s ? body.slice(0, s.index) : body;
    objects.set(m[1] ?? "", {
      dict,
      stream: s ? (dict.includes("FlateDecode") ? await inflate(s[1] ?? "") : (s[1] ?? "")) : null,
    });
  }
  const cmaps = new Map<string, Map<number, string>>();
  for (const obj of objects.values()) {
    for (const f of obj.dict.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
      const font = objects.get(f[2] ?? "");
      const toUnicode = /\/ToUnicode (\d+) 0 R/.exec(font?.dict ?? "")?.[1];
      const cmap = toUnicode ? objects.get(toUnicode)?.stream : null;
      if (cmap) {
        cmaps.set(f[1] ?? "", parseCmap(cmap));
      }
    }
  }
  const lines: string[] = [];
  for (const obj of objects.values()) {
    if (!obj.stream?.includes("BT")) {
      continue;
    }
    for (const block of obj.stream.matchAll(/BT([\s\S]*?)ET/g)) {
      let font = new Map<number, string>();
      let line = "";
      for (const op of (block[1] ?? "").matchAll(/\/(F\d+) [\d.]+ Tf|<([0-9A-Fa-f]*)>|\[([^\]]*)\]\s*TJ/g)) {
        if (op[1]) {
          font = cmaps.get(op[1]) ?? new Map();
        }
        const hexes =
          op[2] !== undefined
            ? [op[2]]
            : [...(op[3] ?? "").matchAll(/<([0-9A-Fa-f]*)>/g)].map((x) => x[1] ?? "");
        for (const h of op[1] ? [] : hexes) {
          for (const g of h.match(/.{4}/g) ?? []) {
            line += font.get(Number.parseInt(g, 16)) ?? "";
          }
        }
      }
      lines.push(line);
    }
  }
  return lines.join("\n");
}
