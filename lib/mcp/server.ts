import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { resource, toolError } from "@/lib/mcp/tool-errors";
import type { z } from "zod";
import { notFound } from "@/lib/platform/errors";
import { refuseAgentFields, refuseViewer, type AgentRules } from "@/lib/api/handler";
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
import { publishedSchema } from "@/lib/mcp/json-schema";
import { commentResponse } from "@/lib/comments/schemas";
import { questionResponse } from "@/lib/questions/schemas";
import { execution, executionLog } from "@/lib/runs/schemas";
import { taskResponse } from "@/lib/tasks/schemas";
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
  projectsResult,
  startRunArgs,
  taskListResult,
  updateTaskArgs,
  workspacesResult,
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

  const listed: Tool[] = [];
  // `rules.humansOnlyFields`: arguments an agent token may not send, as the HTTP route declares them.
  // A tool's result is its structured content, checked against `output` (the API's response schema);
  // the text content is the same JSON, for clients that read only text.
  const tool = <S extends z.ZodObject, O extends z.ZodObject>(
    name: string,
    description: string,
    args: S,
    output: O,
    run: (args: z.output<S>) => Promise<z.input<O>>,
    rules: Pick<AgentRules, "humansOnlyFields"> = {},
  ) => {
    // The hints let a client run the reads without asking its user each time.
    const annotations = { readOnlyHint: READ_ONLY.has(name), openWorldHint: false };
    listed.push({
      name,
      description,
      annotations,
      inputSchema: publishedSchema(args, "input"),
      outputSchema: publishedSchema(output, "output"),
    });
    server.registerTool(
      name,
      { description, inputSchema: args as z.ZodObject, outputSchema: output as z.ZodObject, annotations },
      async (parsed): Promise<CallToolResult> => {
        try {
          if (rules.humansOnlyFields) refuseAgentFields(mcp.caller, parsed, rules.humansOnlyFields);
          // Every tool but the reads writes: a viewer (or a viewer's token) is refused as the API refuses it.
          if (!READ_ONLY.has(name)) refuseViewer((await enterWorkspace(mcp, (parsed as { workspace_id?: string }).workspace_id)).role);
          // The wire form (dates as strings), which is what the output schema describes.
          const text = JSON.stringify(await run(parsed as z.output<S>));
          return { content: [{ type: "text", text }], structuredContent: JSON.parse(text) };
        } catch (error) {
          return toolError(error, mcp.requestId);
        }
      },
    );
  };

  tool(
    "list_workspaces",
    "The workspaces you can act in (an agent token: its own), with your role.",
    listWorkspacesArgs,
    workspacesResult,
    async () => {
      if (!mcp.caller.workspaceScope) return { workspaces: await listWorkspaces(mcp.db, mcp.caller.userId) };
      const workspace = await enterWorkspace(mcp, undefined);
      const row = await mcp.db.workspace.findUniqueOrThrow({ where: { id: workspace.id } });
      return { workspaces: [{ ...serializeWorkspace(row), role: workspace.role }] };
    },
  );

  tool(
    "list_tasks",
    "Tasks in board order (column, then position), with their open questions and latest runs. With only `column` the answer " +
      "has the column's `total`; `project_id` and `search` (part of the title) narrow it. Pages: `limit`, `offset`, `has_more`.",
    listTasksArgs,
    taskListResult,
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
      // The database wrote the page as JSON text (lib/tasks/load-tasks.ts).
      return JSON.parse((await enterWorkspace(mcp, workspace_id, read)).body!);
    },
  );

  tool("get_task", "One task, with its open questions and latest runs.", getTaskArgs, taskResponse, async ({ workspace_id, task_id }) => {
    const workspace = await enterWorkspace(mcp, workspace_id);
    const task = await loadTask(mcp.sql, workspace.id, task_id);
    if (!task) throw notFound("Task");
    return task;
  });

  tool(
    "create_task",
    "Creates a task at the end of its column (`status`, default backlog).",
    createTaskArgs,
    taskResponse,
    async ({ workspace_id, ...body }) => createTask(mcp.db, (await enterWorkspace(mcp, workspace_id)).id, body, assignerOf(mcp.caller)),
    { humansOnlyFields: PEOPLE_ONLY_TASK_FIELDS },
  );

  tool(
    "update_task",
    "Changes the fields given (title, description, status, priority, tags, project_id, phase, blocked, assignees, due_at, …; branch and pr_url " +
      "are for people, refused to an agent token). " +
      "A new `status` puts the task at the end of that column; use move_task to place it.",
    updateTaskArgs,
    taskResponse,
    async ({ workspace_id, task_id, ...body }) =>
      updateTask(mcp.db, (await enterWorkspace(mcp, workspace_id)).id, task_id, body, {}, assignerOf(mcp.caller)),
    { humansOnlyFields: PEOPLE_ONLY_TASK_FIELDS },
  );

  tool(
    "move_task",
    "Moves a task to `column`, between `after_id` (the task shown just above it) and `before_id` (just below); " +
      "with neither, to the end of the column.",
    moveTaskArgs,
    taskResponse,
    async ({ workspace_id, task_id, ...body }) => moveTask(mcp.db, (await enterWorkspace(mcp, workspace_id)).id, task_id, body),
  );

  tool(
    "ask_question",
    "Asks the people on the board a question about a task (it shows on the task's card until answered). Returns the question; " +
      "with `wait_seconds`, waits that long for the answer and returns it when it comes (status answered, answer). " +
      "Otherwise read it later with get_answer.",
    askQuestionArgs,
    questionResponse,
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
    commentResponse,
    async ({ workspace_id, task_id, body }) => {
      const workspace = await enterWorkspace(mcp, workspace_id);
      return createComment(mcp.db, workspace.id, task_id, body, workspace.caller);
    },
  );

  tool(
    "get_answer",
    "A question asked with ask_question: `status` is answered once a person answered, with the `answer`.",
    getAnswerArgs,
    questionResponse,
    async ({ workspace_id, question_id }) => getQuestion(mcp.db, (await enterWorkspace(mcp, workspace_id)).id, question_id),
  );

  tool(
    "list_projects",
    "The workspace's projects (a task's project_id and phase refer to them).",
    listProjectsArgs,
    projectsResult,
    async ({ workspace_id, ...query }) => ({ projects: await listProjects(mcp.db, (await enterWorkspace(mcp, workspace_id)).id, query) }),
  );

  tool(
    "start_run",
    "Starts the board's agent on a task (a manual run). Returns the execution; follow it with get_run_log.",
    startRunArgs,
    execution,
    async ({ workspace_id, task_id, instructions, agent_id, force }) => {
      const workspace = await enterWorkspace(mcp, workspace_id);
      return startManualRun(mcp.db, workspace.id, task_id, workspace.caller, { instructions, agent_id, force });
    },
  );

  tool(
    "get_run_log",
    "Lines of an execution's log from `offset`; `complete` is true once it finished and every line was returned.",
    getRunLogArgs,
    executionLog,
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
  // The SDK's own listing publishes zod's JSON Schemas as they are, with nullable fields in two
  // forms; this one publishes the same schemas with one (lib/mcp/json-schema.ts).
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  return server;
}

async function callerWorkspaces(mcp: McpRequest): Promise<{ id: string; name: string }[]> {
  if (!mcp.caller.workspaceScope) return listWorkspaces(mcp.db, mcp.caller.userId);
  return [await enterWorkspace(mcp, undefined)];
}
