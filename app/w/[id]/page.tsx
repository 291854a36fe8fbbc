import type { Metadata } from "next";
import { Board } from "@/components/board/board";

export const metadata: Metadata = { title: "Board · Taskboard" };

export default async function BoardPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <Board workspaceId={id} />;
}
