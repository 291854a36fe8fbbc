import { agentPresets, presetById } from "@/lib/agents/presets";

// Whether a profile's runs can start, as far as the server can tell, in words a person acts on: its
// program installed (the shipped agents are), and the model key it needs — stored on the profile, or
// in the server's environment and passed through. Runners elsewhere may differ; the runner says so
// when a run starts there (lib/runner-process/run-job.ts).

export interface ProfileFacts {
  name: string;
  preset: string | null;
  envPassthrough: string[];
  keyNames: string[];
}

export function profileReadiness(profile: ProfileFacts): { ready: boolean; problems: string[] } {
  const problems: string[] = [];
  const preset = presetById(profile.preset);
  if (preset) {
    const shipped = installedPresets().find((entry) => entry.preset === preset.preset);
    if (shipped && !shipped.installed)
      problems.push(`${preset.name} is not installed on the server${shipped.install ? `: ${shipped.install}` : ""}.`);
    if (preset.key && !hasKey(profile, preset.key)) problems.push(missingKeyMessage(profile.name, preset.key));
  }
  return { ready: problems.length === 0, problems };
}

/** The words of a run refused for a missing key, and of the profile's readiness. */
export function missingKeyMessage(profileName: string, key: string): string {
  return `${profileName} needs ${key}: store it in Settings → Agents → ${profileName}, or set it in the server's environment and list it in the profile's passed-through variables.`;
}

function hasKey(profile: ProfileFacts, key: string): boolean {
  return profile.keyNames.includes(key) || (profile.envPassthrough.includes(key) && Boolean(process.env[key]));
}

// Looking for the agents' programs reads the disk; a list of profiles asks once a minute at most.
let installed: { at: number; presets: ReturnType<typeof agentPresets> } | null = null;
function installedPresets() {
  if (!installed || Date.now() - installed.at > 60_000) installed = { at: Date.now(), presets: agentPresets() };
  return installed.presets;
}
