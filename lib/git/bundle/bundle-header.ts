import fs from "node:fs";

// The header of a git bundle (https://git-scm.com/docs/gitformat-bundle): its signature, v3
// capabilities, prerequisites and refs, then an empty line and the pack. Read here rather than by
// `git fetch` because git before 2.47 does not fsck a bundle's objects when fetching from it, and a
// runner's bundle is untrusted: the pack is handed to `git index-pack --strict` instead
// (lib/git/bundle/store-branch-bundle.ts), which needs to know where it starts.

export interface BundleHeader {
  /** Ref name → object id, as the bundle lists them. */
  refs: Map<string, string>;
  /** Commits the bundle builds on and does not carry. */
  prerequisites: string[];
  /** Where the pack starts in the file. */
  packOffset: number;
}

/** A header longer than this is not one a runner makes (it lists one ref). */
const HEADER_MAX_BYTES = 64 * 1024;
const OID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** The bundle's header, or null when the file is not a git bundle of version 2 or 3 without a filter. */
export function readBundleHeader(file: string): BundleHeader | null {
  const handle = fs.openSync(file, "r");
  let bytes: Buffer;
  try {
    const buffer = Buffer.alloc(HEADER_MAX_BYTES);
    bytes = buffer.subarray(0, fs.readSync(handle, buffer, 0, HEADER_MAX_BYTES, 0));
  } finally {
    fs.closeSync(handle);
  }
  const end = bytes.indexOf("\n\n");
  if (end < 0) return null;
  const [signature, ...lines] = bytes.subarray(0, end).toString("utf8").split("\n");
  if (signature !== "# v2 git bundle" && signature !== "# v3 git bundle") return null;
  const header: BundleHeader = { refs: new Map(), prerequisites: [], packOffset: end + 2 };
  for (const line of lines) {
    if (line.startsWith("@")) {
      // A filtered (partial) bundle lacks objects on purpose; only the object format is expected.
      if (signature === "# v3 git bundle" && line.startsWith("@object-format=")) continue;
      return null;
    }
    if (line.startsWith("-")) {
      const oid = line.slice(1).split(" ")[0];
      if (!OID.test(oid)) return null;
      header.prerequisites.push(oid);
      continue;
    }
    const space = line.indexOf(" ");
    const oid = line.slice(0, space);
    const ref = line.slice(space + 1);
    if (space < 0 || !OID.test(oid) || !ref) return null;
    header.refs.set(ref, oid);
  }
  if (bytes.subarray(header.packOffset, header.packOffset + 4).toString("latin1") !== "PACK") return null;
  return header;
}
