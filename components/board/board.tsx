"use client";

import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  closestCorners,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
} from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { api, ApiClientError } from "@/lib/client/api";
import {
  flatItems,
  patchTask,
  placeTask,
  positionBetween,
  restoreColumns,
  snapshotColumns,
  type ColumnData,
} from "@/lib/client/board-cache";
import { boardKeys, projectKeys } from "@/lib/client/query-keys";
import { rememberBoardCursor } from "@/lib/client/use-workspace-events";
import { DEFAULT_SORT, type ColumnSort, type Project, type Task, type TaskPage } from "@/lib/client/types";
import { COLUMNS, type ColumnKey } from "@/lib/tasks/columns";
import { BoardColumn, PAGE_SIZE, type ColumnHandle } from "@/components/board/board-column";
import { CardBody, type CardData } from "@/components/board/task-card";
import { useToast } from "@/components/ui/toast";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";

const COLUMN_TITLE = Object.fromEntries(COLUMNS.map((c) => [c.key, c.title])) as Record<ColumnKey, string>;

interface MoveInput {
  task: Task;
  column: ColumnKey;
  /** The neighbours it lands between, in board (position) order. */
  before?: Task;
  after?: Task;
  /** The cache it was dropped into and where, so the card shows there at once. */
  at?: { key: readonly unknown[]; index: number };
}

export function Board({ workspaceId }: { workspaceId: string }) {
  const client = useQueryClient();
  const toast = useToast();
  const ui = useWorkspaceUi();
  const [sorts, setSorts] = useState<Record<ColumnKey, ColumnSort>>(
    () => Object.fromEntries(COLUMNS.map((c) => [c.key, DEFAULT_SORT])) as Record<ColumnKey, ColumnSort>,
  );
  const [projectId, setProjectId] = useState<string | null>(null);
  const [search, setSearch] = useState("");
  const [dragging, setDragging] = useState<Task | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const firstColumn = useRef<ColumnHandle>(null);
  // The first page of all five columns in one request; each column's own query takes over from there.
  const firstPages = useQuery({
    queryKey: boardKeys.firstPages(workspaceId),
    queryFn: async () => {
      const board = await api<{ columns: (TaskPage & { key: ColumnKey })[]; cursor: string }>(
        `/api/workspaces/${workspaceId}/board?limit=${PAGE_SIZE}`,
      );
      for (const { key, items, total, has_more } of board.columns) {
        const cacheKey = boardKeys.columnSorted(workspaceId, key, DEFAULT_SORT);
        if (!client.getQueryData(cacheKey))
          client.setQueryData<ColumnData>(cacheKey, { pages: [{ items, total, has_more }], pageParams: [0] });
      }
      // The live stream goes on from what this board shows.
      rememberBoardCursor(workspaceId, board.cursor);
      return true;
    },
    staleTime: Infinity,
    retry: false,
  });
  const columnsReady = !firstPages.isPending;
  const projects = useQuery({
    queryKey: projectKeys.list(workspaceId),
    queryFn: () => api<Project[]>(`/api/workspaces/${workspaceId}/projects`),
    enabled: columnsReady,
  });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      if (document.querySelector("dialog[open]")) return;
      if (event.key === "n") {
        event.preventDefault();
        firstColumn.current?.focusQuickAdd();
      } else if (event.key === "/") {
        event.preventDefault();
        searchRef.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const move = useMutation({
    mutationFn: ({ task, column, before, after }: MoveInput) =>
      api<Task>(`/api/workspaces/${workspaceId}/tasks/${task.id}/move`, {
        method: "POST",
        json: { column, ...(before ? { after_id: before.id } : {}), ...(after ? { before_id: after.id } : {}) },
      }),
    onMutate: async ({ task, column, before, after, at }) => {
      await client.cancelQueries({ queryKey: boardKeys.all(workspaceId) });
      const snapshot = snapshotColumns(client, workspaceId);
      const moved: Task = { ...task, status: column, position: positionBetween(before, after) };
      placeTask(client, workspaceId, moved, { at });
      return { snapshot };
    },
    onError: (error, { task, column }, context) => {
      if (context) restoreColumns(client, context.snapshot);
      // 409 means this board's view of the column was out of date: fetch the columns again.
      const stale = error instanceof ApiClientError && error.status === 409;
      toast(
        `“${task.title}” could not be moved to ${COLUMN_TITLE[column]}: ${error.message}.${stale ? " The board has been refreshed." : ""}`,
        "error",
      );
      if (stale) client.invalidateQueries({ queryKey: boardKeys.columns(workspaceId) });
    },
    onSuccess: (saved) => {
      // Keep the card where it was dropped; only take the server's fields (its position).
      patchTask(client, workspaceId, saved.id, (old) => ({ ...old, ...saved }));
    },
  });

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, {
      coordinateGetter: sortableKeyboardCoordinates,
      keyboardCodes: { start: ["Space"], cancel: ["Escape"], end: ["Space", "Enter"] },
    }),
  );

  const onDragStart = ({ active }: DragStartEvent) => setDragging((active.data.current as CardData | undefined)?.task ?? null);

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragging(null);
    const from = active.data.current as CardData | undefined;
    const target = over?.data.current as (CardData | { type: "column"; column: ColumnKey }) | undefined;
    if (!from || !target || !over) return;
    const column = target.column;
    const key = boardKeys.columnSorted(workspaceId, column, sorts[column]);
    const list = flatItems(client.getQueryData<ColumnData>(key));
    const hasMore = Boolean(client.getQueryData<ColumnData>(key)?.pages.at(-1)?.has_more);
    const task = from.task;
    if (sorts[column].by !== "position") {
      if (from.column === column) return toast(`Sort ${COLUMN_TITLE[column]} by board order to reorder it.`);
      return move.mutate({ task, column });
    }
    const without = list.filter((item) => item.id !== task.id);
    let index: number;
    if (target.type === "card") {
      const overIndex = list.findIndex((item) => item.id === target.task.id);
      if (overIndex < 0 || target.task.id === task.id) return;
      if (from.column === column) {
        // Same column: the card takes the place of the one it is over (arrayMove semantics).
        index = overIndex;
      } else {
        const below =
          (active.rect.current.translated?.top ?? 0) + (active.rect.current.translated?.height ?? 0) / 2 >
          over.rect.top + over.rect.height / 2;
        index = overIndex + (below ? 1 : 0);
      }
    } else {
      if (from.column === column) return;
      index = hasMore ? 0 : without.length;
    }
    index = Math.min(index, without.length);
    if (sorts[column].dir === "desc") {
      // Visually above means later in position order.
      move.mutate({ task, column, before: without[index], after: without[index - 1], at: { key, index } });
    } else {
      move.mutate({ task, column, before: without[index - 1], after: without[index], at: { key, index } });
    }
  };

  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up task ${titleOf(active.data.current)}.`,
    onDragOver: ({ active, over }) =>
      !over
        ? `Task ${titleOf(active.data.current)} is no longer over a column.`
        : over.id === active.id
          ? `Task ${titleOf(active.data.current)} is back in its place.`
          : `Task ${titleOf(active.data.current)} is over ${placeOf(over.data.current)}.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `Task ${titleOf(active.data.current)} was dropped on ${placeOf(over.data.current)}.`
        : `Task ${titleOf(active.data.current)} was dropped where it was.`,
    onDragCancel: ({ active }) => `Moving task ${titleOf(active.data.current)} was cancelled. It is back where it was.`,
  };

  return (
    <div className="flex h-full flex-col">
      <div className="flex items-center gap-3 px-6 pt-4 pb-3">
        <h1 className="sr-only">Board</h1>
        <label className="flex items-center gap-2 text-sm">
          <span>Project</span>
          <select
            value={projectId ?? ""}
            onChange={(event) => setProjectId(event.target.value || null)}
            className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
          >
            <option value="">All projects</option>
            {(projects.data ?? []).map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm">
          <span className="sr-only">Search task titles</span>
          <input
            ref={searchRef}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search titles  ( / )"
            className="w-64 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
          />
        </label>
        <p className="ml-auto text-xs text-slate-600 dark:text-slate-400">
          Press <kbd className="font-mono">?</kbd> for shortcuts
        </p>
      </div>
      <DndContext
        sensors={sensors}
        collisionDetection={detectCollision}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDragging(null)}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable:
              "To move a task, press Space. Use the arrow keys to move it within a column or to another column, Space to drop it, or Escape to cancel. Press Enter to open it.",
          },
        }}
      >
        <div className="flex min-h-0 flex-1 gap-3 overflow-x-auto px-6 pb-4">
          {COLUMNS.map((column, i) => (
            <BoardColumn
              key={column.key}
              ref={i === 0 ? firstColumn : undefined}
              workspaceId={workspaceId}
              column={column.key}
              title={column.title}
              sort={sorts[column.key]}
              onSortChange={(sort) => setSorts((old) => ({ ...old, [column.key]: sort }))}
              projectId={projectId}
              search={search}
              enabled={columnsReady}
              onOpen={ui.openTask}
            />
          ))}
        </div>
        <DragOverlay dropAnimation={null}>
          {dragging ? (
            // No rotation: the keyboard sensor compares this box's edges with the other cards'.
            <div className="cursor-grabbing rounded-lg border border-blue-600 bg-white p-3 shadow-xl dark:bg-slate-900">
              <CardBody task={dragging} />
            </div>
          ) : null}
        </DragOverlay>
      </DndContext>
    </div>
  );
}

/**
 * With a pointer: the column under the pointer, then the card of that column nearest the dragged
 * card's centre. With the keyboard (no pointer): the card the moved card now overlaps most, else
 * the column it overlaps, so an arrow key can land a card in an empty column.
 */
const detectCollision: CollisionDetection = (args) => {
  const cards = args.droppableContainers.filter((entry) => entry.data.current?.type === "card");
  const columns = args.droppableContainers.filter((entry) => entry.data.current?.type === "column");
  if (args.pointerCoordinates) {
    const underPointer = pointerWithin({ ...args, droppableContainers: columns });
    if (underPointer.length === 0) return closestCorners(args);
    const column = columns.find((entry) => entry.id === underPointer[0].id)?.data.current?.column;
    const near = closestCenter({ ...args, droppableContainers: cards.filter((entry) => entry.data.current?.column === column) });
    return near.length ? near.slice(0, 1) : underPointer.slice(0, 1);
  }
  const overCards = rectIntersection({ ...args, droppableContainers: cards });
  return overCards.length ? overCards : rectIntersection({ ...args, droppableContainers: columns });
};

function titleOf(data: unknown): string {
  return (data as CardData | undefined)?.task?.title ?? "";
}

function placeOf(data: unknown): string {
  const value = data as CardData | { type: "column"; column: ColumnKey } | undefined;
  if (!value) return "nothing";
  if (value.type === "card") return `task ${value.task.title} in ${COLUMN_TITLE[value.column]}`;
  return `column ${COLUMN_TITLE[value.column]}`;
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}
