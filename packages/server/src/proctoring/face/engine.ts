import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { faceLibrarySettings } from '@examhall/contract';
import type { Config, Human, Result } from '@vladmandic/human';
import { decodeImage } from './image.js';

const require = createRequire(import.meta.url);

/** The folder of an installed package, found from its entry point (some packages do not export package.json). */
function packageDir(name: string): string {
  let dir = dirname(require.resolve(name));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

/** What the package's Node build exports that is used here. */
interface HumanModule {
  Human: typeof Human;
  match: Human['match'];
}

/** The package's Node build for the WASM backend; its exports map has no valid key for it, so it is required by path. */
function loadHuman(): HumanModule {
  return require(join(packageDir('@vladmandic/human'), 'dist', 'human.node-wasm.js')) as HumanModule;
}

/** One face found in a picture. */
export interface FaceFound {
  /** Detector confidence, 0 to 1. */
  score: number;
  /** Box in pixels: x, y, width, height. */
  box: [number, number, number, number];
  /** The face description vector (faceres), empty when it could not be computed. */
  embedding: number[];
}

/** What the engine sees in one picture. */
export interface FaceAnalysis {
  /** Picture width in pixels. */
  width: number;
  /** Picture height in pixels. */
  height: number;
  /** Faces found, most confident first. */
  faces: FaceFound[];
  /** Best confidence of a "cell phone" from the object detector, 0 when none was seen. */
  phoneScore: number;
  /** Milliseconds spent decoding and in the models. */
  decodeMs: number;
  /** Milliseconds spent in the models. */
  inferMs: number;
}

/** The models folder shipped inside the @vladmandic/human package; nothing is downloaded. */
export function humanModelsDir(): string {
  return join(packageDir('@vladmandic/human'), 'models');
}

/** The folder holding tfjs-backend-wasm's .wasm binaries. */
export function wasmDir(): string {
  return join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist');
}

/**
 * How the models run. The defaults are the fast ones `npm run bench:face` measures (README, Performance): the
 * face detector at half its input, the object detector at a smaller input than its file declares and on phones
 * only, no face mesh, no rotation, the description's layers fused. The other values are the package's own way,
 * kept to measure against.
 */
export interface FaceEngineOptions {
  /**
   * Face detector (blazeface) input side: the file's 256, or 128 (see halveFaceDetector), half the cost or
   * less; a candidate at a desk fills much of the camera's picture.
   */
  detectorInput: 256 | 128;
  /**
   * Object detector (centernet) input side in pixels, a multiple of 32 up to the file's 512. Smaller is
   * cheaper (the cost goes with its square) and misses smaller phones: on the fixtures' phone, 256 still sees
   * it at two thirds of its size, not at half (320 does, barely).
   */
  objectInput: number;
  /**
   * Face mesh: off, the description reads the detector's crop (faceres needs no mesh; the mesh would only
   * re-score each face and add landmarks, which nothing here uses).
   */
  mesh: boolean;
  /**
   * Faces turned upright (the whole picture rotated) before their description when the detector sees the head
   * tilted; off, the description reads the upright crop, which scored the fixtures' same person higher.
   */
  rotation: boolean;
  /** The object detector's class head cut to phones, the only class the checks read (see phonesOnly). */
  phonesOnly: boolean;
  /** Face description layers fused (see fuseClippedRelus). */
  fuse: boolean;
}

/** The settings the server runs with. */
export const FACE_ENGINE_DEFAULTS: FaceEngineOptions = {
  detectorInput: 128,
  phonesOnly: true,
  objectInput: 256,
  mesh: false,
  rotation: false,
  fuse: true,
};

/** Human's settings: face detection with description, and the object detector for phones; everything else off. */
function humanConfig(options: FaceEngineOptions): Partial<Config> {
  return faceLibrarySettings({
    wasmPath: wasmDir() + '/',
    modelBasePath: pathToFileURL(humanModelsDir()).href + '/',
    rotation: options.rotation,
    mesh: options.mesh,
  });
}

/** Minimal slice of tfjs's IO types that the file loader fills in. */
interface WeightsManifestGroup {
  paths: string[];
  weights: unknown[];
}

/** A model file as the converter writes it (the parts read here). */
export interface ModelFile {
  modelTopology: { node: { name: string; op: string; input?: string[]; attr?: Record<string, unknown> }[] };
  weightsManifest: WeightsManifestGroup[];
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  signature?: { inputs?: Record<string, { tensorShape?: { dim?: { size: string }[] } }> };
  userDefinedMetadata?: unknown;
}

/** One weight of a manifest. */
interface WeightSpec {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: { dtype: string };
}

/** Sets the square input side of a model's placeholder and signature (batch and channels are kept). */
function setInputSide(model: ModelFile, side: number): void {
  const dims: { size: string }[][] = [];
  for (const node of model.modelTopology.node) {
    if (node.op !== 'Placeholder') continue;
    const shape = node.attr?.['shape'] as { shape?: { dim?: { size: string }[] } } | undefined;
    if (shape?.shape?.dim) dims.push(shape.shape.dim);
  }
  for (const input of Object.values(model.signature?.inputs ?? {})) {
    if (input.tensorShape?.dim) dims.push(input.tensorShape.dim);
  }
  if (dims.length === 0) throw new Error('model input shape not found');
  for (const dim of dims) {
    dim[1] = { size: String(side) };
    dim[2] = { size: String(side) };
  }
}

/** Bytes one element of a weight takes in the weights file. */
function elementBytes(spec: WeightSpec): number {
  const dtype = spec.quantization?.dtype ?? spec.dtype;
  return dtype === 'uint8' || dtype === 'int8' || dtype === 'bool' ? 1 : dtype.endsWith('16') ? 2 : 4;
}

/** Where each weight lies in the weights buffer. */
function weightOffsets(specs: WeightSpec[]): Map<string, { spec: WeightSpec; offset: number; count: number }> {
  const at = new Map<string, { spec: WeightSpec; offset: number; count: number }>();
  let offset = 0;
  for (const spec of specs) {
    const count = spec.shape.reduce((n, d) => n * d, 1);
    at.set(spec.name, { spec, offset, count });
    offset += count * elementBytes(spec);
  }
  return at;
}

/**
 * Rewrites the int32 constants of a weights buffer, by name; each must hold `from` (the values the file was
 * converted with, so another model version fails loudly instead of detecting nonsense).
 */
function patchInt32(
  specs: WeightSpec[],
  weights: Buffer,
  changes: Record<string, { from: number[]; to: number[] }>,
): void {
  const at = weightOffsets(specs);
  for (const [name, change] of Object.entries(changes)) {
    const w = at.get(name);
    if (!w) throw new Error(`model constant not found: ${name}`);
    const now = Array.from({ length: w.count }, (_, i) => weights.readInt32LE(w.offset + i * 4));
    if (w.spec.dtype !== 'int32' || w.spec.quantization || now.join() !== change.from.join()) {
      throw new Error(`unexpected model constant ${name}: ${now.join()}`);
    }
    change.to.forEach((v, i) => weights.writeInt32LE(v, w.offset + i * 4));
  }
}

/**
 * The object detector (MobileNetV3 CenterNet, output stride 4) at a smaller square input. The network is
 * convolutional; what ties it to 512 are constants of its head, written for a 512 input: the sizes of its
 * three upsamplings (input / 16, / 8, / 4), the width of its heat map (input / 4, which turns a peak's index
 * into x and y) and the row count of the box gather (the heat map's cells). Boxes come out in input pixels,
 * which human divides by the input side it reads from the signature.
 */
function resizeObjectDetector(model: ModelFile, weights: Buffer, side: number): void {
  if (side === 512) return;
  if (side % 32 !== 0 || side < 128 || side > 512)
    throw new Error(`object detector input ${side}: not a multiple of 32`);
  const specs = model.weightsManifest.flatMap((g) => g.weights as WeightSpec[]);
  const cells = side / 4;
  patchInt32(specs, weights, {
    'tower_0/CenternetHead/c5_upsample/up_sampling2d/mul': { from: [32, 32], to: [side / 16, side / 16] },
    'tower_0/CenternetHead/c4_upsample/up_sampling2d_1/mul': { from: [64, 64], to: [side / 8, side / 8] },
    'tower_0/CenternetHead/c3_upsample/up_sampling2d_2/mul': { from: [128, 128], to: [cells, cells] },
    'tower_0/strided_slice_6': { from: [128], to: [cells] },
    'tower_0/BatchGather/concat': { from: [128 * 128, 4], to: [cells * cells, 4] },
  });
  setInputSide(model, side);
}

/** A model's graph being extended: new constants (as weights) and nodes. */
class GraphEdit {
  private readonly extra: Buffer[] = [];
  constructor(
    private readonly model: ModelFile,
    private readonly weights: Buffer,
  ) {}

  /** A new constant, stored as a weight named `name`. */
  constant(name: string, dtype: 'float32' | 'int32', shape: number[], values: number[]): string {
    const buffer = Buffer.alloc(values.length * 4);
    values.forEach((v, i) => (dtype === 'int32' ? buffer.writeInt32LE(v, i * 4) : buffer.writeFloatLE(v, i * 4)));
    this.extra.push(buffer);
    (this.model.weightsManifest.at(-1)!.weights as WeightSpec[]).push({ name, shape, dtype });
    const type = dtype === 'int32' ? 'DT_INT32' : 'DT_FLOAT';
    this.model.modelTopology.node.push({
      name,
      op: 'Const',
      attr: {
        value: { tensor: { dtype: type, tensorShape: { dim: shape.map((d) => ({ size: String(d) })) } } },
        dtype: { type },
      },
    });
    return name;
  }

  /** A new node; returns its name. */
  node(name: string, op: string, input: string[], attr: Record<string, unknown> = { T: { type: 'DT_FLOAT' } }): string {
    this.model.modelTopology.node.push({ name, op, input, attr });
    return name;
  }

  /** The weights with the new constants after them. */
  done(): Buffer {
    return Buffer.concat([this.weights, ...this.extra]);
  }
}

/** The int32 values of a weight (checked to be an unquantized int32 one). */
function int32Weight(specs: WeightSpec[], weights: Buffer, name: string): number[] {
  const w = weightOffsets(specs).get(name);
  if (!w || w.spec.dtype !== 'int32' || w.spec.quantization) throw new Error(`model constant not found: ${name}`);
  return Array.from({ length: w.count }, (_, i) => weights.readInt32LE(w.offset + i * 4));
}

/**
 * The face detector (BlazeFace, 256 input, 896 anchors) run at half its input, 128, at about a quarter of the
 * cost: the network is convolutional, so it reads a picture averaged down two by two (one AvgPool in front) and
 * sees the faces half as large, which at a desk are large anyway. The file still declares 256 and answers in
 * its own layout, so human (here and in the browser) keeps its anchors and crops the faces for their
 * description from the same 256 picture. What changes is behind the heads: at 128 they give an 8x8 grid of 2
 * anchors and a 4x4 grid of 6 instead of 16x16 by 2 and 8x8 by 6, in 128 pixels. Each of their predictions is
 * doubled into 256 pixels and put in a slot of the 256 layout whose anchor sits where its own anchor does
 * (8x8 cells: the same centres, in the first 2 of each cell's 6 slots) or, for the 4x4 grid, 3 cells of 2
 * slots in the top row of the 4x4 block of 16-pixel cells it covers, with the difference of the two centres
 * added to its box centre and landmarks. Every other slot scores -100 (a sigmoid of 0), so human's decoding
 * and non-maximum suppression see the same boxes as a 128-input model would give.
 */
function halveFaceDetector(model: ModelFile, weights: Buffer): Buffer {
  const specs = model.weightsManifest.flatMap((g) => g.weights as WeightSpec[]);
  const nodes = model.modelTopology.node;
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const input = nodes.find((n) => n.op === 'Placeholder');
  const first = nodes.filter((n) => n.input?.includes(input?.name ?? ''));
  const heads = {
    cls16: {
      reshape: 'StatefulPartitionedCall/functional_1/tf_op_layer_classificators_1/classificators_1',
      shape: [1, 512, 1],
    },
    reg16: {
      reshape: 'StatefulPartitionedCall/functional_1/tf_op_layer_regressors_1/regressors_1',
      shape: [1, 512, 16],
    },
    cls32: {
      reshape: 'StatefulPartitionedCall/functional_1/tf_op_layer_classificators_2/classificators_2',
      shape: [1, 384, 1],
    },
    reg32: {
      reshape: 'StatefulPartitionedCall/functional_1/tf_op_layer_regressors_2/regressors_2',
      shape: [1, 384, 16],
    },
  };
  const found = Object.fromEntries(
    Object.entries(heads).map(([key, head]) => {
      const reshape = byName.get(head.reshape);
      const output = nodes.find((n) => n.op === 'Identity' && n.input?.[0] === head.reshape);
      if (reshape?.op !== 'Reshape' || !reshape.input || !output)
        throw new Error(`face detector head not found: ${key}`);
      const shape = int32Weight(specs, weights, reshape.input[1]!);
      if (shape.join() !== head.shape.join()) throw new Error(`unexpected face detector head ${key}: ${shape.join()}`);
      reshape.op = 'Removed';
      return [key, { conv: reshape.input[0]!, output }];
    }),
  ) as Record<keyof typeof heads, { conv: string; output: ModelFile['modelTopology']['node'][number] }>;
  if (!input || first.length !== 1) throw new Error('face detector input not found');

  const edit = new GraphEdit(model, weights);
  const at = (name: string) => `examhall/half/${name}`;
  const pool = edit.node(at('pool'), 'AvgPool', [input.name], {
    T: { type: 'DT_FLOAT' },
    data_format: { s: Buffer.from('NHWC').toString('base64') },
    ksize: { list: { i: ['1', '2', '2', '1'] } },
    strides: { list: { i: ['1', '2', '2', '1'] } },
    padding: { s: Buffer.from('VALID').toString('base64') },
  });
  first[0]!.input = first[0]!.input!.map((i) => (i === input.name ? pool : i));
  const two = edit.constant(at('two'), 'float32', [], [2]);
  const none = edit.constant(at('none'), 'float32', [], [-100]);
  const int = (name: string, shape: number[], values: number[]) => edit.constant(at(name), 'int32', shape, values);
  const shape = (name: string, values: number[]) => int(name, [values.length], values);

  // the 8x8 grid (stride 16 at 128, 32 at 256): 2 of the 6 slots of the same cell, the others empty
  const cls8 = edit.node(at('cls8/pad'), 'PadV2', [
    found.cls16.conv,
    int('cls8/paddings', [4, 2], [0, 0, 0, 0, 0, 0, 0, 4]),
    none,
  ]);
  found.cls32.output.input = [edit.node(at('cls8'), 'Reshape', [cls8, shape('cls8/shape', [1, 384, 1])])];
  const reg8x2 = edit.node(at('reg8/mul'), 'Mul', [found.reg16.conv, two]);
  const reg8 = edit.node(at('reg8/pad'), 'Pad', [reg8x2, int('reg8/paddings', [4, 2], [0, 0, 0, 0, 0, 0, 0, 64])]);
  found.reg32.output.input = [edit.node(at('reg8'), 'Reshape', [reg8, shape('reg8/shape', [1, 384, 16])])];

  // the 4x4 grid (stride 32 at 128, 64 at 256): cell (y, x) to the 16-pixel cells (4y, 4x + 0..2), 2 slots each
  const cls4rows = edit.node(at('cls4/rows'), 'Reshape', [found.cls32.conv, shape('cls4/rows/shape', [4, 1, 4, 6])]);
  const cls4 = edit.node(at('cls4/pad'), 'PadV2', [
    cls4rows,
    int('cls4/paddings', [4, 2], [0, 0, 0, 3, 0, 0, 0, 2]),
    none,
  ]);
  found.cls16.output.input = [edit.node(at('cls4'), 'Reshape', [cls4, shape('cls4/shape', [1, 512, 1])])];
  // its anchor (64x + 32, 64y + 32) less the slot's (64x + 16k + 8, 64y + 8), for box centre and the 6 landmarks
  const offsets: number[] = [];
  for (let k = 0; k < 3; k++) {
    for (let slot = 0; slot < 2; slot++) {
      for (let c = 0; c < 16; c++) offsets.push(c === 2 || c === 3 ? 0 : c % 2 === 0 ? 24 - 16 * k : 24);
    }
  }
  const reg4x2 = edit.node(at('reg4/mul'), 'Mul', [found.reg32.conv, two]);
  const reg4rows = edit.node(at('reg4/rows'), 'Reshape', [reg4x2, shape('reg4/rows/shape', [4, 1, 4, 96])]);
  const reg4moved = edit.node(at('reg4/add'), 'AddV2', [
    reg4rows,
    edit.constant(at('reg4/offsets'), 'float32', [96], offsets),
  ]);
  const reg4 = edit.node(at('reg4/pad'), 'Pad', [reg4moved, int('reg4/paddings', [4, 2], [0, 0, 0, 3, 0, 0, 0, 32])]);
  found.reg16.output.input = [edit.node(at('reg4'), 'Reshape', [reg4, shape('reg4/shape', [1, 512, 16])])];
  model.modelTopology.node = model.modelTopology.node.filter((n) => n.op !== 'Removed');
  return edit.done();
}

/** The object detector's class of "cell phone" (human's label list counts from 0, "person"). */
const PHONE_CLASS = 67;

/**
 * The object detector reduced to the one class the checks read, phones: its class head computes one heat map
 * instead of 80 (the pointwise convolution's filter and bias cut to the phone's channel), and everything after
 * it (sigmoid, peak test, top 100, class arithmetic) works on 1/80 of the values. Its detections keep their
 * layout, the class column set back to the phone's. A phone's score is computed exactly as before; it can only
 * be found more often (no other class's box can suppress it or crowd it out of the top 100).
 */
function phonesOnly(model: ModelFile, weights: Buffer): Buffer {
  const specs = model.weightsManifest.flatMap((g) => g.weights as WeightSpec[]);
  const nodes = model.modelTopology.node;
  const head = 'CenternetHead/centernet_cls_output/';
  const filterName = `${head}pointwise_weights`;
  const biasName = `${head}biases`;
  const filter = floatWeight(specs, weights, filterName);
  const bias = floatWeight(specs, weights, biasName);
  const filterSpec = specs.find((w) => w.name === filterName);
  const classes = 80;
  if (!filter || !bias || bias.length !== classes || filterSpec?.shape.join() !== `1,1,128,${classes}`) {
    throw new Error('object detector class head not found');
  }
  const concat = nodes.find((n) => n.name === 'tower_0/concat_1' && n.op === 'ConcatV2');
  if (concat?.input?.[5] !== 'tower_0/Cast_3') throw new Error('object detector class column not found');
  patchInt32(specs, weights, { 'tower_0/strided_slice_7': { from: [classes], to: [1] } });
  const inputs = filter.length / classes;
  const phoneFilter = Float32Array.from({ length: inputs }, (_, i) => filter[i * classes + PHONE_CLASS]!);
  const cut = replaceWeights(
    specs,
    weights,
    new Map([
      [filterName, phoneFilter],
      [biasName, Float32Array.of(bias[PHONE_CLASS]!)],
    ]),
  );
  const resize = (name: string, shape: number[]) => {
    specs.find((w) => w.name === name)!.shape = shape;
    const node = nodes.find((n) => n.name === name);
    const tensor = (node?.attr?.['value'] as { tensor?: { tensorShape?: unknown } } | undefined)?.tensor;
    if (tensor) tensor.tensorShape = { dim: shape.map((d) => ({ size: String(d) })) };
  };
  resize(filterName, [1, 1, inputs, 1]);
  resize(biasName, [1]);
  const edit = new GraphEdit(model, cut);
  const phone = edit.constant('examhall/phones/class', 'float32', [], [PHONE_CLASS]);
  concat.input[5] = edit.node('examhall/phones/column', 'AddV2', ['tower_0/Cast_3', phone]);
  return edit.done();
}

/** A float16 number from its bits. */
function fromHalf(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/** A float weight's values (stored as float32 or float16), or undefined for any other kind. */
function floatWeight(specs: WeightSpec[], weights: Buffer, name: string): Float32Array | undefined {
  const at = weightOffsets(specs).get(name);
  if (!at || at.spec.dtype !== 'float32') return undefined;
  const stored = at.spec.quantization?.dtype ?? 'float32';
  if (stored !== 'float32' && stored !== 'float16') return undefined;
  return Float32Array.from({ length: at.count }, (_, i) =>
    stored === 'float16' ? fromHalf(weights.readUInt16LE(at.offset + i * 2)) : weights.readFloatLE(at.offset + i * 4),
  );
}

/** The value of a scalar float constant of the weights, or undefined when it is not one. */
function scalarWeight(specs: WeightSpec[], weights: Buffer, name: string): number | undefined {
  const value = floatWeight(specs, weights, name);
  return value?.length === 1 ? value[0] : undefined;
}

/** The weights buffer with some weights replaced by float32 values (their specs lose any quantization). */
function replaceWeights(specs: WeightSpec[], weights: Buffer, values: Map<string, Float32Array>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, at] of weightOffsets(specs)) {
    const value = values.get(name);
    if (!value) {
      parts.push(weights.subarray(at.offset, at.offset + at.count * elementBytes(at.spec)));
      continue;
    }
    delete at.spec.quantization;
    parts.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  return Buffer.concat(parts);
}

/** A graph's nodes by name, and the node behind a name when it has the op and feeds nothing else. */
function graphIndex(nodes: ModelFile['modelTopology']['node']) {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const uses = new Map<string, number>();
  for (const n of nodes) for (const i of n.input ?? []) uses.set(i, (uses.get(i) ?? 0) + 1);
  return {
    uses: (name: string) => uses.get(name) ?? 0,
    only: (name: string | undefined, op: string) => {
      const node = name === undefined ? undefined : byName.get(name);
      return node?.op === op && uses.get(node.name) === 1 ? node : undefined;
    },
  };
}

/**
 * The face description (a MobileNetV1) clips each layer with three full passes over its output (Relu, Minimum
 * with 6, Maximum with 0), which cost more than the convolutions on the WASM backend. Each such clip becomes one
 * Relu6, and a plain convolution followed by its bias and the clip becomes one fused convolution (bias and Relu6
 * applied as it writes). Same arithmetic, in fewer passes; returns how many clips were rewritten.
 */
function fuseClippedRelus(model: ModelFile, weights: Buffer): number {
  const specs = model.weightsManifest.flatMap((g) => g.weights as WeightSpec[]);
  const nodes = model.modelTopology.node;
  const { only } = graphIndex(nodes);
  const removed = new Set<string>();
  let fused = 0;
  for (const max of nodes) {
    if (max.op !== 'Maximum' || !max.input) continue;
    const min = only(max.input[0], 'Minimum');
    const relu = only(min?.input?.[0], 'Relu');
    if (!min?.input || !relu?.input) continue;
    if (scalarWeight(specs, weights, min.input[1]!) !== 6 || scalarWeight(specs, weights, max.input[1]!) !== 0)
      continue;
    const add = only(relu.input[0], 'Add');
    const conv = only(add?.input?.[0], 'Conv2D');
    const bias = add?.input?.[1] === undefined ? undefined : specs.find((w) => w.name === add.input![1]);
    if (add?.input && conv?.input && bias?.shape.length === 1) {
      max.op = '_FusedConv2D';
      max.input = [conv.input[0]!, conv.input[1]!, add.input[1]!];
      max.attr = {
        ...conv.attr,
        num_args: { i: '1' },
        epsilon: { f: 0 },
        fused_ops: { list: { s: ['BiasAdd', 'Relu6'].map((op) => Buffer.from(op).toString('base64')) } },
      };
      removed.add(add.name).add(conv.name);
    } else {
      max.op = 'Relu6';
      max.input = [relu.input[0]!];
      max.attr = { T: { type: 'DT_FLOAT' } };
    }
    removed.add(relu.name).add(min.name);
    fused++;
  }
  model.modelTopology.node = nodes.filter((n) => !removed.has(n.name));
  return fused;
}

/**
 * After fuseClippedRelus, each depthwise layer of the face description is still a convolution, a per-channel
 * scale (its batch norm), a bias and a Relu6, four passes. The scale is folded into the depthwise kernel
 * (kernel[., ., c] * scale[c]) and the rest becomes one fused depthwise convolution. Returns the new weights.
 */
function foldDepthwiseScales(model: ModelFile, weights: Buffer): Buffer {
  const specs = model.weightsManifest.flatMap((g) => g.weights as WeightSpec[]);
  const nodes = model.modelTopology.node;
  const { uses, only } = graphIndex(nodes);
  const removed = new Set<string>();
  const folded = new Map<string, Float32Array>();
  for (const relu6 of nodes) {
    if (relu6.op !== 'Relu6' || !relu6.input) continue;
    const add = only(relu6.input[0], 'Add');
    const mul = only(add?.input?.[0], 'Mul');
    const dw = only(mul?.input?.[0], 'DepthwiseConv2dNative');
    if (!add?.input || !mul?.input || !dw?.input) continue;
    const kernelName = dw.input[1]!;
    const kernel = uses(kernelName) === 1 ? floatWeight(specs, weights, kernelName) : undefined;
    const scale = floatWeight(specs, weights, mul.input[1]!);
    const bias = specs.find((w) => w.name === add.input![1]);
    const channels = scale?.length ?? 0;
    if (!kernel || !scale || bias?.shape.join() !== String(channels) || kernel.length % channels !== 0) continue;
    // kernel layout [height, width, channels, 1]: the channel is the fastest-moving index
    for (let i = 0; i < kernel.length; i++) kernel[i]! *= scale[i % channels]!;
    folded.set(kernelName, kernel);
    relu6.op = 'FusedDepthwiseConv2dNative';
    relu6.input = [dw.input[0]!, kernelName, add.input[1]!];
    relu6.attr = {
      ...dw.attr,
      num_args: { i: '1' },
      fused_ops: { list: { s: ['BiasAdd', 'Relu6'].map((op) => Buffer.from(op).toString('base64')) } },
    };
    removed.add(add.name).add(mul.name).add(dw.name);
  }
  model.modelTopology.node = nodes.filter((n) => !removed.has(n.name));
  return folded.size > 0 ? replaceWeights(specs, weights, folded) : weights;
}

/** A model as tfjs loads it: its file's JSON (the weights manifest made to match) and all its weights in one buffer. */
export interface ModelArtifacts {
  /** The model file, its manifest describing `weights` (some weights may have lost their quantization). */
  model: ModelFile;
  /** Every weight, in manifest order. */
  weights: Buffer;
}

/**
 * Reads one of the package's models the way the engine runs it (as the options say): the face detector at half
 * its input, the object detector at its smaller input and on phones only, the face description with its layers
 * fused. The exam page's monitor gets the same bytes (http/faceModels.ts).
 */
export async function loadModelArtifacts(jsonPath: string, options: FaceEngineOptions): Promise<ModelArtifacts> {
  const model = JSON.parse(await readFile(jsonPath, 'utf8')) as ModelFile;
  const parts: Buffer[] = [];
  for (const group of model.weightsManifest) {
    for (const p of group.paths) parts.push(await readFile(join(dirname(jsonPath), p)));
  }
  let all: Buffer = Buffer.concat(parts);
  const name = basename(jsonPath);
  if (name === 'blazeface.json' && options.detectorInput === 128) all = halveFaceDetector(model, all);
  if (name === 'centernet.json') {
    resizeObjectDetector(model, all, options.objectInput);
    if (options.phonesOnly) all = phonesOnly(model, all);
  }
  if (name === 'faceres.json') {
    if (options.fuse) {
      if (fuseClippedRelus(model, all) === 0) throw new Error('face description: no layer to fuse');
      all = foldDepthwiseScales(model, all);
    }
  }
  return { model, weights: all };
}

/**
 * Lets tfjs load `file://` model URLs from disk: in Node only tfjs-node registers such a handler,
 * and human's default (fetch) cannot read files. Models are loaded as loadModelArtifacts makes them.
 */
function registerFileLoader(tf: Human['tf'], options: FaceEngineOptions): void {
  tf.io.registerLoadRouter((url: unknown) => {
    if (typeof url !== 'string' || !url.startsWith('file://')) return null;
    const jsonPath = fileURLToPath(url);
    return {
      load: async () => {
        const { model, weights: all } = await loadModelArtifacts(jsonPath, options);
        return {
          modelTopology: model.modelTopology,
          weightSpecs: model.weightsManifest.flatMap((g) => g.weights),
          weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
          format: model.format,
          generatedBy: model.generatedBy,
          convertedBy: model.convertedBy,
          signature: model.signature,
          userDefinedMetadata: model.userDefinedMetadata,
        };
      },
    };
  });
}

/** The face engine of one thread: @vladmandic/human on the tfjs WASM backend with the models its package ships. */
export class FaceEngine {
  private constructor(private readonly human: Human) {}

  /**
   * Loads the backend and the models (a second or two); call once per thread (human keeps its models per
   * module, so a second engine in the same thread shares the first one's, whatever its options).
   */
  static async create(options: FaceEngineOptions = FACE_ENGINE_DEFAULTS): Promise<FaceEngine> {
    const human = new (loadHuman().Human)(humanConfig(options));
    registerFileLoader(human.tf, options);
    // the threaded WASM build wants web workers; each pool thread runs one single-threaded backend instead
    human.tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    await human.init();
    await human.load();
    const missing = Object.entries({
      blazeface: human.models.models.blazeface,
      ...(options.mesh ? { facemesh: human.models.models.facemesh } : {}),
      faceres: human.models.models.faceres,
      centernet: human.models.models.centernet,
    }).filter(([, m]) => !m);
    if (missing.length > 0) throw new Error(`face models not loaded: ${missing.map(([n]) => n).join(', ')}`);
    return new FaceEngine(human);
  }

  /** Decodes a JPEG/PNG and finds faces (with embeddings) and phones in it. */
  async analyze(bytes: Uint8Array): Promise<FaceAnalysis> {
    const t0 = performance.now();
    const img = await decodeImage(bytes);
    const t1 = performance.now();
    const tf = this.human.tf;
    const tensor = tf.tensor4d(img.data, [1, img.height, img.width, 3], 'int32');
    let result: Result;
    try {
      result = await this.human.detect(tensor);
    } finally {
      tf.dispose(tensor);
    }
    if (result.error) throw new Error(`face detection failed: ${result.error}`);
    const t2 = performance.now();
    // boxes in the picture's own pixels, whatever size it was decoded at
    const sx = img.sourceWidth / img.width;
    const sy = img.sourceHeight / img.height;
    const faces = result.face
      .map((f) => ({
        score: f.boxScore ?? f.score,
        box: [f.box[0] * sx, f.box[1] * sy, f.box[2] * sx, f.box[3] * sy].map(Math.round) as FaceFound['box'],
        embedding: f.embedding ? Array.from(f.embedding) : [],
      }))
      .sort((a, b) => b.score - a.score);
    const phoneScore = Math.max(0, ...result.object.filter((o) => o.label === 'cell phone').map((o) => o.score));
    return {
      width: img.sourceWidth,
      height: img.sourceHeight,
      faces,
      phoneScore,
      decodeMs: t1 - t0,
      inferMs: t2 - t1,
    };
  }
}

/**
 * Similarity of two face embeddings, 0 to 1, with human's match.similarity (its default normalisation:
 * the same person scores about 0.7 to 1, different people about 0.15 to 0.45 on the fixtures); 0 when
 * either embedding is missing.
 */
export function faceSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  return loadHuman().match.similarity([...a], [...b]);
}
