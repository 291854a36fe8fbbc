"use client";

import { useState } from "react";
import type { z } from "zod";
import type { Repository } from "@/lib/client/agents";
import type { repositoryCredentialBody } from "@/lib/repositories/schemas";
import { inputClass } from "@/components/ui/field";
import { formatDateTime } from "@/lib/client/dates";

// The workspace's own credential for its remote: write-only. The page only ever shows which kind
// is stored and since when; what is typed here goes to the server once and is never read back.

export type CredentialInput = z.input<typeof repositoryCredentialBody>;
type Kind = "none" | "access_token" | "deploy_key";

export function CredentialStatus({ credential }: { credential: Repository["credential"] }) {
  if (!credential)
    return <p className="text-sm text-slate-600 dark:text-slate-400">No credential: a public remote, or a path on the server.</p>;
  const what = credential.type === "access_token" ? `An access token (user ${credential.username})` : "A deploy key";
  return (
    <p className="text-sm" data-testid="repository-credential">
      {what} is stored, encrypted, since {formatDateTime(credential.set_at)}.
    </p>
  );
}

/** Kind, then the secret; reports the credential to send, or null while none is chosen or filled in. */
export function CredentialFields({ url, onChange }: { url: string; onChange: (value: CredentialInput | null) => void }) {
  const [kind, setKind] = useState<Kind>("none");
  const [secret, setSecret] = useState("");
  const [username, setUsername] = useState("");
  const report = (next: { kind?: Kind; secret?: string; username?: string }) => {
    const k = next.kind ?? kind;
    const s = (next.secret ?? secret).trim();
    const u = (next.username ?? username).trim();
    if (k === "none" || !s) onChange(null);
    else if (k === "access_token") onChange({ type: k, token: s, ...(u ? { username: u } : {}) });
    else onChange({ type: k, private_key: `${s}\n` });
  };
  const setField = (field: "secret" | "username", value: string) => {
    (field === "secret" ? setSecret : setUsername)(value);
    report({ [field]: value });
  };
  const ssh = /^ssh:\/\/|^[^/:]+@[^/:]+:/.test(url.trim());
  return (
    <fieldset className="space-y-2">
      <label className="block text-sm font-medium">
        Credential
        <select
          value={kind}
          onChange={(e) => {
            setKind(e.target.value as Kind);
            report({ kind: e.target.value as Kind });
          }}
          className={inputClass}
        >
          <option value="none">None (public remote)</option>
          <option value="access_token">Access token (https)</option>
          <option value="deploy_key">Deploy key (ssh)</option>
        </select>
      </label>
      {kind === "access_token" ? (
        <div className="grid gap-2 sm:grid-cols-2">
          <label className="block text-sm font-medium">
            Access token
            <input
              type="password"
              autoComplete="off"
              value={secret}
              onChange={(e) => setField("secret", e.target.value)}
              className={inputClass}
            />
          </label>
          <label className="block text-sm font-medium">
            User name (optional)
            <input
              value={username}
              placeholder="x-access-token"
              onChange={(e) => setField("username", e.target.value)}
              className={inputClass}
            />
          </label>
        </div>
      ) : kind === "deploy_key" ? (
        <label className="block text-sm font-medium">
          Deploy key (private key, no passphrase)
          <textarea
            rows={4}
            autoComplete="off"
            spellCheck={false}
            value={secret}
            onChange={(e) => setField("secret", e.target.value)}
            className={`${inputClass} font-mono text-xs`}
            placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
          />
        </label>
      ) : null}
      {kind !== "none" ? (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Stored encrypted and never shown again. {kind === "access_token" && ssh ? "An access token needs an https:// URL." : null}
          {kind === "deploy_key" && !ssh && url ? "A deploy key needs an ssh:// or user@host:path URL." : null}
        </p>
      ) : null}
    </fieldset>
  );
}
