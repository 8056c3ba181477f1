// What a doc block says it prints, checked against what it printed. A `// → text` comment (after a
// statement, or on a line of its own) is an expected piece of stdout; the pieces must appear in order.
// Whitespace is ignored (console.log spreads objects over lines as it likes), `…` stands for anything, and
// each number must equal the printed one to the digits written: `// → -44.3268` holds for -44.326801. A
// statistical value is written `≈40`: it holds within 3%.

/** The `// →` expectations of a code block, in order. */
export function printedExpectations(code: string): string[] {
  return code.split('\n').flatMap((line) => {
    const at = line.indexOf('// →');
    return at < 0 ? [] : [line.slice(at + '// →'.length).trim()];
  });
}

const NUMBER = /-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/;
// A number of an expectation, `≈` marking it approximate.
const WRITTEN = new RegExp(`(≈?)(${NUMBER.source})`, 'g');
const APPROXIMATE = 0.03;

// A literal piece of an expectation as a pattern: any whitespace may come between its characters (console.log
// writes `[ 1, 1 ]` where a doc writes `[1, 1]`), and `…` is anything.
function literal(text: string): string {
  return [...text.replace(/\s+/g, '')]
    .map((c) => (c === '…' ? '[\\s\\S]*?' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .map((piece) => `${piece}\\s*`)
    .join('');
}

// Half a unit in the last digit written: 3 decimals allow ±0.0005, 2.18e-3 allows ±0.005e-3.
function tolerance(written: string): number {
  const [mantissa, exponent = '0'] = written.toLowerCase().split('e');
  const decimals = mantissa.includes('.') ? mantissa.length - mantissa.indexOf('.') - 1 : 0;
  return 0.5 * 10 ** (Number(exponent) - decimals);
}

/**
 * Checks that every expectation appears in `stdout`, in order; returns the first that does not (with what
 * was printed around where it was looked for), or undefined when all do.
 *
 * @example
 * unmatched('step 58 newly [ 1, 1 ]\n', ['step 58 newly [1, 1]']); // undefined
 */
export function unmatched(stdout: string, expectations: readonly string[]): string | undefined {
  const printed = stdout;
  let from = 0;
  for (const expected of expectations) {
    const text = expected.trim();
    const literals: string[] = [];
    const numbers: Array<{ value: number; within: number }> = [];
    let last = 0;
    for (const match of text.matchAll(WRITTEN)) {
      literals.push(text.slice(last, match.index));
      const value = Number(match[2]);
      numbers.push({ value, within: Math.max(tolerance(match[2]), match[1] === '≈' ? APPROXIMATE * Math.abs(value) : 0) });
      last = match.index + match[0].length;
    }
    literals.push(text.slice(last));
    const pattern = new RegExp(literals.map(literal).join(`(${NUMBER.source})\\s*`), 'g');
    pattern.lastIndex = from;
    let found: RegExpExecArray | null;
    let matched = false;
    while ((found = pattern.exec(printed)) !== null) {
      const values = found.slice(1);
      if (values.every((value, k) => Math.abs(Number(value) - numbers[k].value) <= numbers[k].within * (1 + 1e-12))) {
        from = found.index + found[0].length;
        matched = true;
        break;
      }
      pattern.lastIndex = found.index + 1;
    }
    if (!matched) return `expected "${expected}" in what the block printed after ${JSON.stringify(printed.slice(Math.max(0, from - 40), from))}: ${JSON.stringify(printed.slice(from, from + 200))}`;
  }
  return undefined;
}
