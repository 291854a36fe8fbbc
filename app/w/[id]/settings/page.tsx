import type { Metadata } from "next";
import { SettingsPage } from "@/components/settings/settings-page";
import { publicUrl } from "@/lib/config";

export const metadata: Metadata = { title: "Settings · Taskboard" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <SettingsPage workspaceId={id} boardUrl={publicUrl()?.href ?? null} />;
}
