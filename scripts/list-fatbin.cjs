#!/usr/bin/env node
// Lists the GPU images embedded in a CUDA binary, as `cuobjdump --list-elf --list-ptx` does, for machines
// whose CUDA toolkit has no cuobjdump (the slim nvcc packages). Each .cu file contributes one fatbin
// container to the .nv_fatbin section; every container must hold every architecture, or kernels from that
// file fail to launch on the missing GPU.
//
//   node scripts/list-fatbin.cjs hookmd_cuda.node [--expect sm_75,sm_80,sm_90,compute_90]
//
// Prints one line per image: container, kind (SASS "sm_XX" or PTX "compute_XX") and size. With --expect,
// exits 1 unless every container holds exactly those images.
'use strict';
const { readFileSync } = require('node:fs');

const FATBIN_MAGIC = 0xba55ed50;
const KIND_PTX = 1;
const KIND_ELF = 2;

/** The bytes of the named section of a little-endian ELF64 file, or undefined. */
function elfSection(file, wanted) {
  if (file.readUInt32BE(0) !== 0x7f454c46 || file[4] !== 2 || file[5] !== 1) {
    throw new Error('not a little-endian ELF64 file');
  }
  const shoff = Number(file.readBigUInt64LE(0x28));
  const shentsize = file.readUInt16LE(0x3a);
  const shnum = file.readUInt16LE(0x3c);
  const shstrndx = file.readUInt16LE(0x3e);
  const header = (i) => shoff + i * shentsize;
  const names = Number(file.readBigUInt64LE(header(shstrndx) + 0x18));
  for (let i = 0; i < shnum; i++) {
    const nameStart = names + file.readUInt32LE(header(i));
    const name = file.toString('latin1', nameStart, file.indexOf(0, nameStart));
    if (name === wanted) {
      const offset = Number(file.readBigUInt64LE(header(i) + 0x18));
      return file.subarray(offset, offset + Number(file.readBigUInt64LE(header(i) + 0x20)));
    }
  }
  return undefined;
}

/**
 * The images of each fatbin container. Layout (CUDA's fatbinary format, as nvcc 13 writes it): a 16-byte
 * container header { u32 magic, u16 version, u16 headerSize, u64 payloadSize }, then entries
 * { u16 kind, u16, u32 headerSize, u64 size, ..., u32 arch at byte 28 } each followed by its image.
 * Containers are 8-byte aligned.
 */
function fatbinContainers(section) {
  const containers = [];
  let offset = 0;
  while (offset + 16 <= section.length && section.readUInt32LE(offset) === FATBIN_MAGIC) {
    const end = offset + section.readUInt16LE(offset + 6) + Number(section.readBigUInt64LE(offset + 8));
    const images = [];
    for (let entry = offset + section.readUInt16LE(offset + 6); entry < end; ) {
      const kind = section.readUInt16LE(entry);
      const headerSize = section.readUInt32LE(entry + 4);
      const size = Number(section.readBigUInt64LE(entry + 8));
      const arch = section.readUInt32LE(entry + 28);
      if (kind !== KIND_PTX && kind !== KIND_ELF) throw new Error(`unknown fatbin image kind ${kind}`);
      images.push({ name: `${kind === KIND_PTX ? 'compute' : 'sm'}_${arch}`, size });
      entry += headerSize + size;
    }
    containers.push(images);
    offset = (end + 7) & ~7;
  }
  // Anything but padding left over means a container was not understood, and a check would miss it.
  if (section.subarray(offset).some((byte) => byte !== 0)) throw new Error(`unrecognised data at .nv_fatbin offset ${offset}`);
  return containers;
}

function main(argv) {
  const [path, flag, list] = argv;
  if (path === undefined || (flag !== undefined && (flag !== '--expect' || list === undefined))) {
    console.error('usage: node scripts/list-fatbin.cjs FILE.node [--expect sm_75,sm_80,...,compute_90]');
    return 2;
  }
  const section = elfSection(readFileSync(path), '.nv_fatbin');
  const containers = section === undefined ? [] : fatbinContainers(section);
  containers.forEach((images, i) => {
    for (const { name, size } of images) console.log(`fatbin ${i + 1}: ${name.padEnd(11)} ${size} bytes`);
  });
  if (flag === undefined) return 0;
  const expected = list.split(',').sort().join(',');
  const wrong = containers
    .map((images, i) => ({ i, got: images.map((image) => image.name).sort().join(',') }))
    .filter(({ got }) => got !== expected);
  if (containers.length === 0 || wrong.length > 0) {
    const detail = containers.length === 0 ? 'no .nv_fatbin images' : wrong.map(({ i, got }) => `fatbin ${i + 1} has ${got}`).join('; ');
    console.error(`list-fatbin: ${path}: expected ${expected} in every container: ${detail}`);
    return 1;
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
