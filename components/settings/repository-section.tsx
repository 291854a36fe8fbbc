"use client";

import { useState } from "react";
import { useDeleteRepository, useRepository, useSetRepository, type Repository } from "@/lib/client/agents";
import { ErrorText, inputClass, primaryButton, secondaryButton, Spinner } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { WorktreeDiskUse } from "@/components/settings/worktree-disk-use";
import { CredentialFields, CredentialStatus, type CredentialInput } from "@/components/settings/repository-credential";
import { card } from "@/components/settings/settings-card";
import { SectionState } from "@/components/ui/section-state";

const muted = "text-sm text-slate-600 dark:text-slate-400";

/** The git repository agents work on: each task gets a worktree of it on its own branch. */
export function RepositorySection({ workspaceId }: { workspaceId: string }) {
  const repository = useRepository(workspaceId);
  return (
    <section aria-labelledby="repository-title" className={card}>
      <h2 id="repository-title" className="mb-2 font-semibold">
        Repository
      </h2>
      <SectionState query={repository} what="the repository">
        {(data) => (data ? <Connected workspaceId={workspaceId} repository={data} /> : <ConnectForm workspaceId={workspaceId} />)}
      </SectionState>
    </section>
  );
}

function Connected({ workspaceId, repository }: { workspaceId: string; repository: Repository }) {
  const save = useSetRepository(workspaceId);
  const remove = useDeleteRepository(workspaceId);
  const toast = useToast();
  const [credential, setCredential] = useState<CredentialInput | null>(null);
  const [changing, setChanging] = useState(false);
  const put = (value: CredentialInput | null, done: string) =>
    save.mutate(
      { url: repository.url, default_branch: repository.default_branch, credential: value },
      {
        onSuccess: () => {
          setChanging(false);
          toast(done);
        },
      },
    );
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-sm" data-testid="repository-status">
          Agents work on <strong className="break-all">{repository.url}</strong>, from <code>{repository.default_branch}</code>.
        </p>
        <WorktreeDiskUse repository={repository} />
        <button type="button" className={secondaryButton} disabled={remove.isPending} onClick={() => remove.mutate()}>
          Disconnect
        </button>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <CredentialStatus credential={repository.credential} />
        <button type="button" className={secondaryButton} onClick={() => setChanging(!changing)}>
          {repository.credential ? "Replace credential" : "Add credential"}
        </button>
        {repository.credential ? (
          <button type="button" className={secondaryButton} disabled={save.isPending} onClick={() => put(null, "Credential removed")}>
            Remove credential
          </button>
        ) : null}
      </div>
      {changing ? (
        <form
          className="space-y-3"
          onSubmit={(event) => {
            event.preventDefault();
            put(credential, "Credential saved");
          }}
        >
          <CredentialFields url={repository.url} onChange={setCredential} />
          <button type="submit" className={primaryButton} disabled={save.isPending || !credential}>
            {save.isPending ? <Spinner label="Checking the repository" /> : null} Save credential
          </button>
        </form>
      ) : null}
      <ErrorText>{(save.error ?? remove.error)?.message}</ErrorText>
    </div>
  );
}

function ConnectForm({ workspaceId }: { workspaceId: string }) {
  const save = useSetRepository(workspaceId);
  const toast = useToast();
  const [url, setUrl] = useState("");
  const [branch, setBranch] = useState("main");
  const [credential, setCredential] = useState<CredentialInput | null>(null);
  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        const input = { url: url.trim(), default_branch: branch.trim() || "main", ...(credential ? { credential } : {}) };
        save.mutate(input, { onSuccess: () => toast("Repository connected") });
      }}
    >
      <p className={muted}>
        Without a repository, agents run in an empty scratch directory. With one, each task gets its own worktree and branch.
      </p>
      <label className="block text-sm font-medium">
        Git URL or path on the server
        <input
          required
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://github.com/acme/app.git"
          className={inputClass}
        />
      </label>
      <label className="block text-sm font-medium">
        Default branch
        <input value={branch} onChange={(e) => setBranch(e.target.value)} className={inputClass} />
      </label>
      <CredentialFields url={url} onChange={setCredential} />
      <ErrorText>{save.error?.message}</ErrorText>
      <button type="submit" className={primaryButton} disabled={save.isPending}>
        {save.isPending ? <Spinner label="Checking the repository" /> : null} Connect repository
      </button>
    </form>
  );
}
