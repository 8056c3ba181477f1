// Reads the files of LAMMPS's ML-IAP package as the Debian LAMMPS (29 Sep 2021) reads them: the `sna` and
// `so3` descriptor files (SNAP's keywords, or so3's nmax, lmax and alpha, with the elements, radii and weights
// in them), the model files (`linear`,
// `quadratic`: per element its coefficients; `nn`: per element a NET header of layers and activations, the
// two scale rows and the layers' biases and weights) and the `.mliap` include file that combines them
// (`pair_style [hybrid/overlay zbl inner outer] mliap model KIND FILE descriptor sna|so3 FILE`). Every number is
// checked here with the file and line (MLIAP_PARSE); native code checks counts, ranges and finiteness again.
import { HookmdError } from '../errors.js';
import { readStructureText } from '../io/structure-text.js';
import { includeError, readLammpsInclude, wordLines, type LammpsCommand, type WordLine } from './lammps-include.js';
import { pairStyles, resolveNear, snapComponents, zblCore, type SnapParameters } from './snap-file.js';

/** One element of a descriptor file: its name, radius and weight. */
export interface MliapElement {
  readonly name: string;
  readonly radius: number;
  readonly weight: number;
}

/** An `sna` descriptor file: SNAP's settings (no quadraticflag: that is the model's) and its elements. */
export interface SnaDescriptor {
  readonly style: 'sna';
  readonly parameters: Omit<SnapParameters, 'quadraticflag'>;
  readonly elements: readonly MliapElement[];
}

/** An `so3` descriptor file (PyXtal_FF's smooth SO(3) power spectrum): its basis and its elements. */
export interface So3Descriptor {
  readonly style: 'so3';
  readonly parameters: { readonly rcutfac: number; readonly nmax: number; readonly lmax: number; readonly alpha: number };
  readonly elements: readonly MliapElement[];
}

export type MliapDescriptor = SnaDescriptor | So3Descriptor;
export type MliapDescriptorStyle = MliapDescriptor['style'];

/** Descriptors per element: SNAP's components (per element triple with chemflag), or nmax (nmax + 1)/2 (lmax + 1). */
export function descriptorCount(descriptor: MliapDescriptor): number {
  if (descriptor.style === 'so3') {
    const { nmax, lmax } = descriptor.parameters;
    return ((nmax * (nmax + 1)) / 2) * (lmax + 1);
  }
  return snapComponents(descriptor.parameters.twojmax) * (descriptor.parameters.chemflag ? descriptor.elements.length ** 3 : 1);
}

export type MliapModelKind = 'linear' | 'quadratic' | 'nn';

/** The activations of LAMMPS's NET format, with the native codes of native/cpp/math/DescriptorNetwork.h. */
export const ACTIVATIONS = { linear: 0, sigmoid: 1, tanh: 2, relu: 3 } as const;
export type MliapActivation = keyof typeof ACTIVATIONS;

/** A model file: per element its parameters in the file's order; for `nn`, the layers. */
export interface MliapModel {
  readonly kind: MliapModelKind;
  readonly numElements: number;
  readonly perElement: number;
  /** nn: the descriptors the network takes and each layer's nodes and activation. */
  readonly network?: { readonly descriptors: number; readonly layers: readonly { readonly nodes: number; readonly activation: MliapActivation }[] };
  /** Per element: nn's s₀, s₁ then its parameters; otherwise its coefficients. */
  readonly parameters: readonly (readonly number[])[];
}

export function mliapError(model: string, file: string, line: number, message: string): HookmdError {
  return new HookmdError('MLIAP_PARSE', `${model}: ${file}:${line}: ${message}`, { file, line });
}

function numberOf(model: string, file: string, line: number, text: string, what: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw mliapError(model, file, line, `${what}: expected a finite number, got '${text}'`);
  return value;
}

const SNA_FLAGS = ['switchflag', 'bzeroflag', 'chemflag', 'bnormflag', 'wselfallflag'] as const;
const SO3_KEYWORDS = ['nmax', 'lmax', 'alpha'] as const;

/**
 * Reads an `sna` or `so3` descriptor file; without `style` (as `descriptor STYLE FILE` names it), an so3 file
 * is one that sets nmax, lmax or alpha. Throws READ_FAILED or MLIAP_PARSE (unknown keywords, missing
 * required ones, per-element lists of the wrong length).
 */
export function readMliapDescriptor(model: string, file: string, style?: MliapDescriptorStyle): MliapDescriptor {
  const found: Record<string, { value: number; text: string; line: number }> = {};
  let names: string[] | undefined;
  let radii: number[] | undefined;
  let weights: number[] | undefined;
  let count: number | undefined;
  for (const { words, line } of wordLines(readStructureText(model, file))) {
    const [keyword, ...values] = words as [string, ...string[]];
    if (keyword === 'elems' || keyword === 'radelems' || keyword === 'welems') {
      if (count === undefined) throw mliapError(model, file, line, `${keyword} before nelems`);
      if (values.length !== count) throw mliapError(model, file, line, `${keyword} needs ${count} values (nelems), got ${values.length}`);
      if (keyword === 'elems') names = values;
      else if (keyword === 'radelems') radii = values.map((v) => numberOf(model, file, line, v, keyword));
      else weights = values.map((v) => numberOf(model, file, line, v, keyword));
      continue;
    }
    if (values.length !== 1) throw mliapError(model, file, line, `expected 'keyword value', got '${words.join(' ')}'`);
    const value = numberOf(model, file, line, values[0] as string, keyword);
    if (keyword === 'nelems') {
      if (!Number.isInteger(value) || value < 1) throw mliapError(model, file, line, `nelems must be a whole number >= 1, got ${values[0]}`);
      count = value;
    } else {
      found[keyword] = { value, text: values[0] as string, line };
    }
  }
  const resolved = style ?? (SO3_KEYWORDS.some((k) => k in found) ? 'so3' : 'sna');
  const allowed = resolved === 'so3' ? ['rcutfac', ...SO3_KEYWORDS] : ['rcutfac', 'twojmax', 'rfac0', 'rmin0', ...SNA_FLAGS];
  for (const [keyword, { line }] of Object.entries(found)) {
    if (!allowed.includes(keyword)) {
      throw mliapError(model, file, line, `unknown keyword '${keyword}' of an ${resolved} descriptor (${[...allowed.slice(0, 1), 'nelems', 'elems', 'radelems', 'welems', ...allowed.slice(1)].join(', ')})`);
    }
  }
  const required = resolved === 'so3' ? ['rcutfac', ...SO3_KEYWORDS] : ['rcutfac', 'twojmax'];
  for (const [keyword, value] of [...required.map((k) => [k, found[k]] as const), ['nelems', count], ['elems', names], ['radelems', radii], ['welems', weights]] as const) {
    if (value === undefined) throw mliapError(model, file, 1, `the file does not set ${keyword}, which an ${resolved} descriptor requires`);
  }
  const rcutfac = (found.rcutfac as { value: number }).value;
  if (!(rcutfac > 0)) throw mliapError(model, file, (found.rcutfac as { line: number }).line, `rcutfac must be > 0, got ${rcutfac}`);
  const elements = (names as string[]).map((name, k) => {
    const radius = (radii as number[])[k] as number;
    if (!(radius > 0)) throw mliapError(model, file, 1, `${name}: the radius must be > 0, got ${radius}`);
    return { name, radius, weight: (weights as number[])[k] as number };
  });
  const whole = (keyword: string, least: number): number => {
    const { value, text, line } = found[keyword] as { value: number; text: string; line: number };
    if (!Number.isInteger(value) || value < least) throw mliapError(model, file, line, `${keyword} must be a whole number >= ${least}, got ${text}`);
    return value;
  };
  if (resolved === 'so3') {
    const alpha = found.alpha as { value: number; line: number };
    if (!(alpha.value > 0)) throw mliapError(model, file, alpha.line, `alpha must be > 0, got ${alpha.value}`);
    for (const e of elements) {
      // LAMMPS reads so3 weights into an int: a fraction would silently be cut off there.
      if (!Number.isInteger(e.weight)) throw mliapError(model, file, 1, `${e.name}: an so3 weight must be a whole number (LAMMPS truncates it), got ${e.weight}`);
    }
    return { style: 'so3', parameters: { rcutfac, nmax: whole('nmax', 1), lmax: whole('lmax', 0), alpha: alpha.value }, elements };
  }
  const flags = Object.fromEntries(
    SNA_FLAGS.map((flag) => {
      const entry = found[flag];
      if (entry !== undefined && entry.value !== 0 && entry.value !== 1) throw mliapError(model, file, entry.line, `${flag} must be 0 or 1, got ${entry.text}`);
      return [flag, entry === undefined ? flag === 'switchflag' || flag === 'bzeroflag' : entry.value === 1];
    }),
  ) as Record<(typeof SNA_FLAGS)[number], boolean>;
  const parameters = { rcutfac, twojmax: whole('twojmax', 0), rfac0: found.rfac0?.value ?? 0.99363, rmin0: found.rmin0?.value ?? 0, ...flags };
  if (!(parameters.rfac0 > 0 && parameters.rfac0 <= 1)) throw mliapError(model, file, 1, `rfac0 must be in (0, 1], got ${parameters.rfac0}`);
  return { style: 'sna', parameters, elements };
}

/** Reads a `linear`, `quadratic` or `nn` model file. Throws READ_FAILED or MLIAP_PARSE (a count that does not match, an unknown activation). */
export function readMliapModel(model: string, kind: MliapModelKind, file: string): MliapModel {
  const lines = wordLines(readStructureText(model, file));
  const header = lines[0];
  if (header === undefined || header.words.length !== 2) {
    throw mliapError(model, file, header?.line ?? 1, `expected "nelements nparams" first${header === undefined ? '' : `, got '${header.words.join(' ')}'`}`);
  }
  const numElements = numberOf(model, file, header.line, header.words[0] as string, 'nelements');
  const perElement = numberOf(model, file, header.line, header.words[1] as string, 'nparams');
  if (!Number.isInteger(numElements) || numElements < 1 || !Number.isInteger(perElement) || perElement < 1) {
    throw mliapError(model, file, header.line, `nelements and nparams must be whole numbers >= 1, got '${header.words.join(' ')}'`);
  }
  let at = 1;
  let network: MliapModel['network'];
  if (kind === 'nn') {
    const net = lines[at];
    if (net === undefined || net.words[0] !== 'NET') throw mliapError(model, file, net?.line ?? header.line, 'an nn model needs a line "NET ndescriptors nlayers activation nodes ..." after its header');
    const [, descText, layerText, ...rest] = net.words as [string, string, string, ...string[]];
    const descriptors = numberOf(model, file, net.line, descText ?? '', 'ndescriptors');
    const count = numberOf(model, file, net.line, layerText ?? '', 'nlayers');
    if (!Number.isInteger(descriptors) || descriptors < 1 || !Number.isInteger(count) || count < 1 || rest.length !== 2 * count) {
      throw mliapError(model, file, net.line, `NET needs ndescriptors, nlayers and an activation and node count per layer, got '${net.words.join(' ')}'`);
    }
    const layers = Array.from({ length: count }, (_, l) => {
      const activation = rest[2 * l] as string;
      if (!(activation in ACTIVATIONS)) throw mliapError(model, file, net.line, `layer ${l + 1}: unknown activation '${activation}' (linear, sigmoid, tanh, relu)`);
      const nodes = numberOf(model, file, net.line, rest[2 * l + 1] as string, `layer ${l + 1} nodes`);
      if (!Number.isInteger(nodes) || nodes < 1) throw mliapError(model, file, net.line, `layer ${l + 1} must have at least one node, got ${rest[2 * l + 1]}`);
      return { nodes, activation: activation as MliapActivation };
    });
    if ((layers[count - 1] as { nodes: number }).nodes !== 1) throw mliapError(model, file, net.line, 'the last layer must have one node: the energy');
    let expected = 0;
    let inputs = descriptors;
    for (const { nodes } of layers) {
      expected += nodes * (inputs + 1);
      inputs = nodes;
    }
    if (expected !== perElement) throw mliapError(model, file, header.line, `nparams is ${perElement}, but the NET line's layers need ${expected}`);
    network = { descriptors, layers };
    at++;
  }
  const words = lines.slice(at).flatMap((l) => l.words.map((text) => ({ text, line: l.line })));
  const block = perElement + (network === undefined ? 0 : 2 * network.descriptors);
  if (words.length !== block * numElements) {
    const last = lines[lines.length - 1] as WordLine;
    throw mliapError(model, file, last.line, `expected ${numElements} × ${block} numbers${network === undefined ? '' : ' (scale0, scale1 and the parameters)'}, got ${words.length}`);
  }
  const parameters = Array.from({ length: numElements }, (_, e) =>
    words.slice(e * block, (e + 1) * block).map((w, k) => numberOf(model, file, w.line, w.text, `element ${e + 1} value ${k + 1}`)),
  );
  return { kind, numElements, perElement, ...(network === undefined ? {} : { network }), parameters };
}

/** What a `.mliap` include file says: the model and descriptor files, the element of each LAMMPS type, and the ZBL core. */
export interface MliapInclude {
  readonly model: { readonly kind: MliapModelKind; readonly file: string };
  readonly descriptor: string;
  readonly descriptorStyle: MliapDescriptorStyle;
  readonly elements: readonly string[];
  readonly zbl?: { readonly inner: number; readonly outer: number; readonly charges: Readonly<Record<string, number>> };
}

/**
 * Reads a `.mliap` include file: `pair_style [hybrid/overlay zbl inner outer] mliap model KIND FILE
 * descriptor sna|so3 FILE` (names resolved against the include file's folder), `pair_coeff * * [mliap] El…` and
 * the ZBL lines. Throws LAMMPS_PARSE or MLIAP_PARSE naming what hookmd does not run (mliappy models, other pair
 * styles).
 */
export function readMliapInclude(model: string, file: string): MliapInclude {
  const include = readLammpsInclude(model, file);
  const other = include.commands.find((c) => c.name !== 'pair_style' && c.name !== 'pair_coeff');
  if (other !== undefined) throw includeError(model, file, other.line, `'${other.name}' is not a command hookmd reads in an ML-IAP file (variable, pair_style, pair_coeff)`);
  const styleCommands = include.commands.filter((c) => c.name === 'pair_style');
  if (styleCommands.length !== 1) throw includeError(model, file, styleCommands[1]?.line ?? 1, `expected one pair_style line, found ${styleCommands.length}`);
  const styleCommand = styleCommands[0] as LammpsCommand;
  const styles = pairStyles(model, file, styleCommand, ['zbl', 'mliap', 'model', 'descriptor', 'linear', 'quadratic', 'nn', 'mliappy', 'sna', 'so3']);
  // pairStyles splits hybrid/overlay at every known word: put mliap's own words back together (a plain
  // `pair_style mliap` keeps them as its arguments).
  const start = styles.findIndex((s) => s.style === 'mliap');
  if (start < 0) throw includeError(model, file, styleCommand.line, 'the pair_style has no mliap');
  const words: string[] = [...(styles[start] as { args: string[] }).args];
  let end = start + 1;
  for (; end < styles.length && (styles[end] as { style: string }).style !== 'zbl'; end++) {
    const s = styles[end] as { style: string; args: string[] };
    words.push(s.style, ...s.args);
  }
  const hybrid = styles.length > end - start || styleCommand.args[0] === 'hybrid/overlay';
  const unknown = [...styles.slice(0, start), ...styles.slice(end)].find((s) => s.style !== 'zbl');
  if (unknown !== undefined) throw includeError(model, file, styleCommand.line, `pair style '${unknown.style}' is not one hookmd runs beside ML-IAP (zbl is)`);
  let kind: MliapModelKind | undefined;
  let modelFile: string | undefined;
  let descriptor: string | undefined;
  let descriptorStyle: MliapDescriptorStyle | undefined;
  for (let k = 0; k < words.length; k += 3) {
    const [key, what, name] = words.slice(k, k + 3);
    if (name === undefined) throw includeError(model, file, styleCommand.line, `mliap: expected 'model KIND FILE descriptor STYLE FILE', got '${words.join(' ')}'`);
    if (key === 'model') {
      if (what !== 'linear' && what !== 'quadratic' && what !== 'nn') {
        throw includeError(model, file, styleCommand.line, `mliap model '${what}' is not one hookmd runs (linear, quadratic, nn)${what === 'mliappy' ? ': mliappy models are Python objects' : ''}`);
      }
      kind = what;
      modelFile = resolveNear(include.folder, name);
    } else if (key === 'descriptor') {
      if (what !== 'sna' && what !== 'so3') throw includeError(model, file, styleCommand.line, `mliap descriptor '${what}' is not one hookmd computes (sna, so3)`);
      descriptor = resolveNear(include.folder, name);
      descriptorStyle = what;
    } else {
      throw includeError(model, file, styleCommand.line, `mliap: unknown keyword '${key}' (model, descriptor)`);
    }
  }
  if (kind === undefined || modelFile === undefined || descriptor === undefined || descriptorStyle === undefined) {
    throw includeError(model, file, styleCommand.line, 'mliap needs both a model and a descriptor');
  }
  const coeffs = include.commands.filter((c) => c.name === 'pair_coeff');
  const mliapLines = coeffs.filter((c) => (hybrid ? c.args[2] === 'mliap' : true));
  const mliapLine = mliapLines[0];
  if (mliapLines.length !== 1 || mliapLine === undefined || mliapLine.args[0] !== '*' || mliapLine.args[1] !== '*') {
    throw includeError(model, file, mliapLine?.line ?? styleCommand.line, `expected one line pair_coeff * *${hybrid ? ' mliap' : ''} element...`);
  }
  const elements = mliapLine.args.slice(hybrid ? 3 : 2);
  if (elements.length === 0) throw includeError(model, file, mliapLine.line, 'pair_coeff names no elements');
  const nullAt = elements.indexOf('NULL');
  if (nullAt >= 0) throw includeError(model, file, mliapLine.line, `type ${nullAt + 1} is NULL (left to another pair style); hookmd runs ML-IAP on every atom`);
  const zblStyle = styles.find((s) => s.style === 'zbl');
  return {
    model: { kind, file: modelFile },
    descriptor,
    descriptorStyle,
    elements,
    ...(zblStyle === undefined ? {} : { zbl: zblCore(model, file, zblStyle, styleCommand.line, coeffs, elements) }),
  };
}
