import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SSH_BASE } from "@/lib/git/git-environment";

// How one git command reaches a remote without a secret in its environment, its arguments or a URL
// (docs/git-safety.md). Everything git passes on to the programs it starts is inherited: its
// environment, and its `-c` options (as GIT_CONFIG_PARAMETERS). So a token's Authorization header is
// written to a configuration file, and a deploy key to a key file, both owner-only in a private
// temporary directory made for this one command and removed when it ends; the command line names
// only the file (`-c include.path=<file>`, `ssh -i <file>`). The non-secret part (the address
// git is pinned to, the ssh options) goes on the command line as it is.

export interface RemoteAccess {
  /** Non-secret configuration for this remote (a pinned address). */
  config: [string, string][];
  /** Secret configuration (an Authorization header), for this one command only. */
  secretConfig?: [string, string][];
  /** The ssh command (SSH_BASE-derived, with the remote's pin and known hosts); without a key it must say IdentityFile=none. */
  sshCommand?: string;
  /** A deploy key in the clear, handed to ssh as a private file. */
  sshKey?: string;
}

export interface MaterializedAccess {
  args: string[];
  env: Record<string, string>;
  dispose(): void;
}

/** The access written out for one command; `dispose()` removes the files. */
export async function materializeAccess(access: RemoteAccess): Promise<MaterializedAccess> {
  const args = access.config.flatMap(([key, value]) => ["-c", `${key}=${value}`]);
  const env: Record<string, string> = {};
  if (access.sshCommand) env.GIT_SSH_COMMAND = access.sshCommand;
  if (!access.secretConfig?.length && !access.sshKey) return { args, env, dispose: () => {} };

  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "taskboard-git-access-"));
  await fs.promises.chmod(dir, 0o700);
  if (access.secretConfig?.length) {
    const file = path.join(dir, "credentials.config");
    await fs.promises.writeFile(file, configText(access.secretConfig), { mode: 0o600, flag: "wx" });
    args.push("-c", `include.path=${file}`);
  }
  if (access.sshKey) {
    const key = path.join(dir, "deploy-key");
    await fs.promises.writeFile(key, `${access.sshKey.replace(/\r\n/g, "\n").trimEnd()}\n`, { mode: 0o600, flag: "wx" });
    env.GIT_SSH_COMMAND = `${access.sshCommand ?? SSH_BASE} -i ${shellQuote(key)}`;
  }
  return { args, env, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** `section.sub.section.name` entries as a git configuration file (values quoted and escaped). */
export function configText(entries: [string, string][]): string {
  return entries
    .map(([key, value]) => {
      const first = key.indexOf(".");
      const last = key.lastIndexOf(".");
      const section = key.slice(0, first);
      const sub = first === last ? null : key.slice(first + 1, last);
      const head = sub === null ? `[${section}]` : `[${section} "${escape(sub)}"]`;
      return `${head}\n\t${key.slice(last + 1)} = "${escape(value)}"\n`;
    })
    .join("");
}

function escape(text: string): string {
  if (/[\n\0]/.test(text)) throw new Error("A git configuration value must be one line");
  return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
