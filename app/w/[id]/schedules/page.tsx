import type { Metadata } from "next";
import { SchedulesPage } from "@/components/schedules/schedules-page";

export const metadata: Metadata = { title: "Schedules · Taskboard" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <SchedulesPage workspaceId={id} />;
}
