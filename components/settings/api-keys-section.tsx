"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiKeysQuery, useCreateApiKey, useDeleteApiKey } from "@/lib/client/api-keys";
import type { CreatedApiKey } from "@/lib/client/types";
import { dangerButton, ErrorText, inputClass, primaryButton, secondaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";
import { ShownOnce } from "@/components/ui/shown-once";
import { useToast } from "@/components/ui/toast";
import { card } from "@/components/settings/settings-card";
import { formatDateTime } from "@/lib/client/dates";

export function ApiKeysSection() {
  const toast = useToast();
  const [name, setName] = useState("");
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const keys = useQuery(apiKeysQuery());
  const create = useCreateApiKey();
  const remove = useDeleteApiKey();
  return (
    <section aria-labelledby="keys-title" className={card}>
      <h2 id="keys-title" className="mb-1 font-semibold">
        Your API keys
      </h2>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        Scripts and agents use these as Bearer tokens. They act as you in every workspace you belong to.
      </p>
      <form
        className="mb-3 flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!name.trim()) return;
          create.mutate(name.trim(), {
            onSuccess: (key) => {
              setCreated(key);
              setName("");
            },
          });
        }}
      >
        <label className="sr-only" htmlFor="key-name">
          Key name
        </label>
        <input
          id="key-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="Name, e.g. CI script"
          maxLength={100}
          className={`${inputClass} mt-0 flex-1`}
        />
        <button type="submit" className={primaryButton} disabled={create.isPending || !name.trim()}>
          Create key
        </button>
      </form>
      <ErrorText>{create.error ? `No key created: ${create.error.message}` : ""}</ErrorText>
      {created ? (
        <ShownOnce
          message={`Copy the key “${created.name}” now: it is shown only once.`}
          value={created.key}
          label="New API key"
          what="the key"
          onDone={() => setCreated(null)}
        />
      ) : null}
      <SectionState query={keys} what="your keys" empty="No API keys yet.">
        {(list) => (
          <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
            {list.map((key) => (
              <li key={key.id} className="flex items-center gap-3 py-2">
                <span className="font-medium">{key.name}</span>
                <code className="text-xs text-slate-600 dark:text-slate-400">{key.prefix}…</code>
                <span className="text-xs text-slate-600 dark:text-slate-400">
                  {key.last_used_at ? `used ${formatDateTime(key.last_used_at)}` : "never used"}
                </span>
                <span className="ml-auto" />
                {confirming === key.id ? (
                  <>
                    <button
                      type="button"
                      className={dangerButton}
                      onClick={() =>
                        remove.mutate(key.id, {
                          onSuccess: () => {
                            setConfirming(null);
                            toast("API key deleted; it stops working at once.");
                          },
                        })
                      }
                      disabled={remove.isPending}
                    >
                      Delete {key.name}
                    </button>
                    <button type="button" className={secondaryButton} onClick={() => setConfirming(null)}>
                      Cancel
                    </button>
                  </>
                ) : (
                  <button
                    type="button"
                    className={secondaryButton}
                    onClick={() => setConfirming(key.id)}
                    aria-label={`Delete key ${key.name}`}
                  >
                    Delete
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </SectionState>
      <ErrorText>{remove.error ? `Not deleted: ${remove.error.message}` : ""}</ErrorText>
    </section>
  );
}
