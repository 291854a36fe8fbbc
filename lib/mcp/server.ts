import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { notFound } from "@/lib/platform/errors";
import { errorResponse, refuseAgentFields, refuseViewer, type AgentRules } from "@/lib/api/handler";
import { createComment } from "@/lib/comments/create-comment";
import { listProjects } from "@/lib/projects/list-projects";
import { createQuestion } from "@/lib/questions/create-question";
import { getQuestion } from "@/lib/questions/get-question";
import { waitForAnswer } from "@/lib/questions/wait-for-answer";
import { readExecutionLog } from "@/lib/runs/read-execution-log";
import { startManualRun } from "@/lib/runs/start-run";
import { COLUMN_KEYS } from "@/lib/tasks/columns";
import { createTask } from "@/lib/tasks/create-task";
import { assignerOf } from "@/lib/tasks/assignees";
import { boardRead, columnPageRead, loadTask, taskSearchRead } from "@/lib/tasks/load-tasks";
import { moveTask } from "@/lib/tasks/move-task";
import { PEOPLE_ONLY_TASK_FIELDS } from "@/lib/tasks/schemas";
import type { boardResponse } from "@/lib/tasks/card-schemas";
import { updateTask } from "@/lib/tasks/update-task";
import { listWorkspaces } from "@/lib/workspaces/list-workspaces";
import { serializeWorkspace } from "@/lib/workspaces/serialize";
import { boardMarkdown, taskMarkdown } from "@/lib/mcp/markdown";
import {
  askQuestionArgs,
  commentOnTaskArgs,
  createTaskArgs,
  getAnswerArgs,
  getRunLogArgs,
  getTaskArgs,
  listProjectsArgs,
  listTasksArgs,
  listWorkspacesArgs,
  moveTaskArgs,
  startRunArgs,
  updateTaskArgs,
} from "@/lib/mcp/schemas";
import { enterWorkspace, type McpRequest } from "@/lib/mcp/workspace";

// The tools and resources of the MCP server. Each tool is the HTTP API's operation: the same lib
// function behind the same workspace check (enterWorkspace), so an error reads as the API's
// `detail` ("Task not found") and an agent token is confined exactly as in the API.

export const SERVER_INFO = { name: "taskboard", version: "0.1.0" };

const BOARD_PAGE = 50;

const READ_ONLY = new Set(["list_workspaces", "list_tasks", "get_task", "get_answer", "list_projects", "get_run_log"]);

export function createMcpServer(mcp: McpRequest): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      "Taskboard: a Kanban board (columns backlog, todo, in_progress, in_review, done) shared by people and agents. " +
      "Every tool takes workspace_id (optional with an agent token). Ask a person with ask_question and read the answer " +
      "with get_answer; read the board as the resource taskboard://workspaces/{workspace_id}/board.",
  });

  // `rules.humansOnlyFields`: arguments an agent token may not send, as the HTTP route declares them.
  const tool = <S extends z.ZodObject>(
    name: string,
    description: string,
    args: S,
    run: (args: z.output<S>) => Promise<unknown>,
    rules: Pick<AgentRules, "humansOnlyFields"> = {},
  ) =>
    server.registerTool(
      name,
      // The hints let a client run the reads without asking its user each time.
      { description, inputSchema: args as z.ZodObject, annotations: { readOnlyHint: READ_ONLY.has(name), openWorldHint: false } },
      async (parsed): Promise<CallToolResult> => {
        try {
          if (rules.humansOnlyFields) refuseAgentFields(mcp.caller, parsed, rules.humansOnlyFields);
          // Every tool but the reads writes: a viewer (or a viewer's token) is refused as the API refuses it.
          if (!READ_ONLY.has(name)) refuseViewer((await enterWorkspace(mcp, (parsed as { workspace_id?: string }).workspace_id)).role);
          const result = await run(parsed as z.output<S>);
          return { content: [{ type: "text", text: typeof result === "string" ? result : JSON.stringify(result) }] };
        } catch (error) {
          return toolError(error, mcp.requestId);
        }
      },
    );

  tool("list_workspaces", "The workspaces you can act in (an agent token: its own), with your role.", listWorkspacesArgs, async () => {
    if (!mcp.caller.workspaceScope) return listWorkspaces(mcp.db, mcp.caller.userId);
    const workspace = await enterWorkspace(mcp, undefined);
    const row = await mcp.db.workspace.findUniqueOrThrow({ where: { id: workspace.id } });
    return [{ ...serializeWorkspace(row), role: workspace.role }];
  });

  tool(
    "list_tasks",
    "Tasks in board order (column, then position), with their open questions and latest runs. With only `column` the answer " +
      "has the column's `total`; `project_id` and `search` (part of the title) narrow it. Pages: `limit`, `offset`, `has_more`.",
    listTasksArgs,
    async ({ workspace_id, column, project_id, search, limit, offset }) => {
      const read =
        column && project_id === undefined && search === undefined
          ? columnPageRead(column, { limit, offset, sortBy: "position", sortDir: "asc" })
          : taskSearchRead({
              columns: column ? [column] : COLUMN_KEYS,
              projectId: project_id ?? null,
              search: search ?? null,
              limit,
              offset,
            });
      // PostgreSQL wrote the page as JSON text (lib/tasks/load-tasks.ts); it goes out as it is.
      return (await enterWorkspace(mcp, workspace_id, read)).body!;
    },
  );

  tool("get_task", "One task, with its open questions and latest runs.", getTaskArgs, async ({ workspace_id, task_id }) => {
    const workspace = await enterWorkspace(mcp, workspace_id);
    const task = await loadTask(mcp.sql, workspace.id, task_id);
    if (!task) throw notFound("Task");
    return task;
  });

  tool(
    "create_task",
    "Creates a task at the end of its column (`status`, default backlog).",
    createTaskArgs,
    async ({ workspace_id, ...body }) => createTask(mcp.db, (await enterWorkspace(mcp, workspace_id)).id, body, assignerOf(mcp.caller)),
    { humansOnlyFields: PEOPLE_ONLY_TASK_FIELDS },
  );

  tool(
    "update_task",
    "Changes the fields given (title, description, status, priority, tags, project_id, phase, blocked, assignees, due_at, …; branch and pr_url " +
      "are for people, refused to an agent token). " +
      "A new `status` puts the task at the end of that column; use move_task to place it.",
    updateTaskArgs,
    async ({ workspace_id, task_id, ...body }) =>
      updateTask(mcp.db, (await enterWorkspace(mcp, workspace_id)).id, task_id, body, {}, assignerOf(mcp.caller)),
    { humansOnlyFields: PEOPLE_ONLY_TASK_FIELDS },
  );

  tool(
    "move_task",
    "Moves a task to `column`, between `after_id` (the task shown just above it) and `before_id` (just below); " +
      "with neither, to the end of the column.",
    moveTaskArgs,
    async ({ workspace_id, task_id, ...body }) => moveTask(mcp.db, (await enterWorkspace(mcp, workspace_id)).id, task_id, body),
  );

  tool(
    "ask_question",
    "Asks the people on the board a question about a task (it shows on the task's card until answered). Returns the question; " +
      "with `wait_seconds`, waits that long for the answer and returns it when it comes (status answered, answer). " +
      "Otherwise read it later with get_answer.",
    askQuestionArgs,
    async ({ workspace_id, wait_seconds, ...body }) => {
      const workspace = await enterWorkspace(mcp, workspace_id);
      const question = await createQuestion(mcp.db, workspace.id, body);
      if (wait_seconds === 0) return question;
      return waitForAnswer(mcp.db, workspace.id, question.id, wait_seconds, mcp.request.signal);
    },
  );

  tool(
    "comment_on_task",
    "Adds a comment (Markdown) to a task, as you: people see it in the task's timeline. `@username` mentions a member; " +
      "`@agent-name` starts that agent profile on the task (an agent may start only its own profile).",
    commentOnTaskArgs,
    async ({ workspace_id, task_id, body }) => {
      const workspace = await enterWorkspace(mcp, workspace_id);
      return createComment(mcp.db, workspace.id, task_id, body, workspace.caller);
    },
  );

  tool(
    "get_answer",
    "A question asked with ask_question: `status` is answered once a person answered, with the `answer`.",
    getAnswerArgs,
    async ({ workspace_id, question_id }) => getQuestion(mcp.db, (await enterWorkspace(mcp, workspace_id)).id, question_id),
  );

  tool(
    "list_projects",
    "The workspace's projects (a task's project_id and phase refer to them).",
    listProjectsArgs,
    async ({ workspace_id, ...query }) => listProjects(mcp.db, (await enterWorkspace(mcp, workspace_id)).id, query),
  );

  tool(
    "start_run",
    "Starts the board's agent on a task (a manual run). Returns the execution; follow it with get_run_log.",
    startRunArgs,
    async ({ workspace_id, task_id, instructions, agent_id, force }) => {
      const workspace = await enterWorkspace(mcp, workspace_id);
      return startManualRun(mcp.db, workspace.id, task_id, workspace.caller, { instructions, agent_id, force });
    },
  );

  tool(
    "get_run_log",
    "Lines of an execution's log from `offset`; `complete` is true once it finished and every line was returned.",
    getRunLogArgs,
    async ({ workspace_id, execution_id, offset, limit }) =>
      readExecutionLog(mcp.db, (await enterWorkspace(mcp, workspace_id)).id, execution_id, offset, limit),
  );

  server.registerResource(
    "board",
    new ResourceTemplate("taskboard://workspaces/{workspace_id}/board", {
      list: async () => ({
        resources: (await callerWorkspaces(mcp)).map((workspace) => ({
          uri: `taskboard://workspaces/${workspace.id}/board`,
          name: `${workspace.name}: board`,
          mimeType: "text/markdown",
        })),
      }),
    }),
    { description: `The board: every column with its first ${BOARD_PAGE} tasks, as markdown.`, mimeType: "text/markdown" },
    async (uri, { workspace_id }) =>
      resource(mcp, async () => {
        const workspace = await enterWorkspace(mcp, String(workspace_id), boardRead(BOARD_PAGE));
        const board = JSON.parse(workspace.body!) as z.output<typeof boardResponse>;
        return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: boardMarkdown(workspace.name, board) }] };
      }),
  );

  server.registerResource(
    "task",
    new ResourceTemplate("taskboard://workspaces/{workspace_id}/tasks/{task_id}", { list: undefined }),
    { description: "A task with its description, open questions and recent runs, as markdown.", mimeType: "text/markdown" },
    async (uri, { workspace_id, task_id }) =>
      resource(mcp, async () => {
        const workspace = await enterWorkspace(mcp, String(workspace_id));
        const task = await loadTask(mcp.sql, workspace.id, String(task_id));
        if (!task) throw notFound("Task");
        return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: taskMarkdown(task) }] };
      }),
  );

  // The SDK advertises listChanged for tools and resources as soon as one is registered; this
  // server is stateless (a new one per request) and its lists never change, so it never sends
  // those notifications and must not say it might.
  server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false } });
  return server;
}

async function callerWorkspaces(mcp: McpRequest): Promise<{ id: string; name: string }[]> {
  if (!mcp.caller.workspaceScope) return listWorkspaces(mcp.db, mcp.caller.userId);
  return [await enterWorkspace(mcp, undefined)];
}

/** The HTTP API's error, in its words: lib/api/handler.ts's errorResponse decides them for both. */
async function errorOf(error: unknown, requestId: string): Promise<{ status: number; text: string }> {
  const response = errorResponse(error, requestId);
  const { detail } = (await response.json()) as { detail: unknown };
  return { status: response.status, text: typeof detail === "string" ? detail : JSON.stringify(detail) };
}

async function toolError(error: unknown, requestId: string): Promise<CallToolResult> {
  return { isError: true, content: [{ type: "text", text: (await errorOf(error, requestId)).text }] };
}

// A resource that cannot be read is a JSON-RPC error; -32002 is the MCP spec's "resource not found".
async function resource<T>(mcp: McpRequest, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const { status, text } = await errorOf(error, mcp.requestId);
    throw new McpError(status === 404 ? -32002 : status < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError, text);
  }
}
