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
import { useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useBoardFirstPages } from "@/lib/client/board";
import { useAssignables } from "@/lib/client/assignees";
import { projectsQuery } from "@/lib/client/projects";
import { workspaceQuery } from "@/lib/client/workspaces";
import { currentUserQuery } from "@/lib/client/current-user";
import { isStaleBoard, useDropTask } from "@/lib/client/tasks";
import type { Card } from "@/lib/client/types";
import { filterQuery, useBoardFilters, useSearchDraft } from "@/lib/client/board-filters";
import { useBoardShortcuts } from "@/components/board/board-shortcuts";
import { COLUMNS, type ColumnKey, type Priority } from "@/lib/tasks/columns";
import { BoardToolbar } from "@/components/board/board-toolbar";
import { keepFocusOnCard } from "@/components/board/card-focus";
import { BoardColumn, type ColumnHandle } from "@/components/board/board-column";
import { CardBody, type CardData } from "@/components/board/task-card";
import { useToast } from "@/components/ui/toast";
import { SelectionBar } from "@/components/board/selection-bar";
import { ColumnTabs } from "@/components/board/column-tabs";
import { SelectionProvider } from "@/components/board/selection";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";

const COLUMN_TITLE = Object.fromEntries(COLUMNS.map((c) => [c.key, c.title])) as Record<ColumnKey, string>;

export function Board({ workspaceId }: { workspaceId: string }) {
  return (
    <SelectionProvider>
      <BoardView workspaceId={workspaceId} />
    </SelectionProvider>
  );
}

function BoardView({ workspaceId }: { workspaceId: string }) {
  const toast = useToast();
  const ui = useWorkspaceUi();
  // Filters and sorts are in the address (lib/client/board-filters.ts).
  const { filters, sorts, setFilter, setSort } = useBoardFilters();
  const [search, setSearch] = useSearchDraft(filters.q, setFilter);
  const projectId = filters.project_id;
  const assignee = filters.assignee;
  const me = useQuery(currentUserQuery());
  const filter = filterQuery(filters, me.data?.id ?? null);
  const [dragging, setDragging] = useState<Card | null>(null);
  // The one column a phone shows (column-tabs.tsx); wider screens show all five.
  const [phoneColumn, setPhoneColumn] = useState<ColumnKey>("todo");
  const searchRef = useRef<HTMLInputElement>(null);
  const firstColumn = useRef<ColumnHandle>(null);
  // The first page of all five columns in one request; each column's own query takes over from there.
  const firstPages = useBoardFirstPages(workspaceId);
  const columnsReady = !firstPages.isPending;
  const projects = useQuery({ ...projectsQuery(workspaceId), enabled: columnsReady });
  const workspace = useQuery(workspaceQuery(workspaceId));

  useBoardShortcuts(firstColumn, searchRef);

  const dropTask = useDropTask(workspaceId);
  const assignables = useAssignables(workspaceId, columnsReady);
  const assigneeId = assignee === "me" ? (me.data?.id ?? "") : assignee;
  const assigneeKind =
    assignee === "me" ? "user" : (assignables.people.concat(assignables.agents).find((a) => a.id === assignee)?.kind ?? null);

  const quickAddFilter = {
    projectId,
    tag: filters.tag,
    priority: filters.priority as Priority | null,
    search: search.trim().toLowerCase(),
    assigneeId,
    assigneeKind,
  };

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, {
      coordinateGetter: sortableKeyboardCoordinates,
      keyboardCodes: { start: ["Space"], cancel: ["Escape"], end: ["Space", "Enter"] },
    }),
  );

  const onDragStart = ({ active }: DragStartEvent) => setDragging((active.data.current as CardData | undefined)?.task ?? null);

  const onDragEnd = ({ active, over, activatorEvent }: DragEndEvent) => {
    setDragging(null);
    const from = active.data.current as CardData | undefined;
    // A keyboard drop re-renders the card in its new place: the focus goes with it, not to the page.
    if (from && activatorEvent instanceof KeyboardEvent) keepFocusOnCard(from.task.id);
    const target = over?.data.current as (CardData | { type: "column"; column: ColumnKey }) | undefined;
    if (!from || !target || !over) return;
    const column = target.column;
    const dragged = active.rect.current.translated;
    const drop = dropTask(
      from.task,
      {
        from: from.column,
        target: target.type === "card" ? { type: "card", taskId: target.task.id, column } : { type: "column", column },
        belowTarget: (dragged?.top ?? 0) + (dragged?.height ?? 0) / 2 > over.rect.top + over.rect.height / 2,
      },
      sorts[column],
      filter,
      {
        onError: (error) =>
          toast(
            `“${from.task.title}” could not be moved to ${COLUMN_TITLE[column]}: ${error.message}.${isStaleBoard(error) ? " The board has been refreshed." : ""}`,
            "error",
          ),
      },
    );
    if (drop.type === "not-in-board-order") toast(`Sort ${COLUMN_TITLE[column]} by board order to reorder it.`);
  };

  return (
    <SelectionProvider>
      <div className="flex h-full flex-col">
        <BoardToolbar
          title={workspace.data ? `${workspace.data.name} board` : "Board"}
          projects={projects.data ?? []}
          projectId={projectId}
          onProjectChange={(id) => setFilter("project_id", id)}
          search={search}
          onSearchChange={setSearch}
          searchRef={searchRef}
          assignee={{ workspaceId, value: assignee, onChange: (value) => setFilter("assignee", value) }}
          tag={filters.tag}
          priority={filters.priority}
          onFilterChange={setFilter}
        />
        {ui.readOnly ? null : <SelectionBar workspaceId={workspaceId} />}
        <ColumnTabs workspaceId={workspaceId} sorts={sorts} filter={filter} value={phoneColumn} onChange={setPhoneColumn} />
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
          {/* relative: screen-reader-only text in the cards is positioned, and must scroll (and clip) with them, not widen the page. */}
          <div className="relative flex min-h-0 flex-1 snap-x snap-mandatory gap-3 overflow-x-auto px-3 pb-4 sm:px-6 md:snap-none">
            {COLUMNS.map((column, i) => (
              <BoardColumn
                key={column.key}
                ref={i === 0 ? firstColumn : undefined}
                workspaceId={workspaceId}
                column={column.key}
                title={column.title}
                sort={sorts[column.key]}
                onSortChange={(sort) => setSort(column.key, sort)}
                filter={filter}
                quickAddFilter={quickAddFilter}
                hiddenOnPhone={column.key !== phoneColumn}
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
    </SelectionProvider>
  );
}

// What a screen reader hears while a card moves.
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
