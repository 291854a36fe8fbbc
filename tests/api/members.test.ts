import { describe, expect, it } from "vitest";
import { call, newUser, newWorkspace } from "../helpers/api";

// DELETE /api/workspaces/{id}/members/{user_id}: owners only; the last owner stays.

async function addMember(token: string, workspaceId: string, username: string, role: "owner" | "member" = "member") {
  const response = await call("POST", `/api/workspaces/${workspaceId}/members`, { token, json: { username, role } });
  expect(response.status).toBe(201);
}

describe("removing a member", () => {
  it("lets an owner remove a member, who then loses the workspace at once", async () => {
    const owner = await newUser();
    const member = await newUser();
    const workspace = await newWorkspace(owner.token);
    await addMember(owner.token, workspace.id, member.username);
    expect((await call("GET", `/api/workspaces/${workspace.id}/board`, { token: member.token })).status).toBe(200);

    const removed = await call("DELETE", `/api/workspaces/${workspace.id}/members/${member.id}`, { token: owner.token });
    expect(removed.status).toBe(204);
    expect(removed.body).toBeNull();
    const members = await call("GET", `/api/workspaces/${workspace.id}/members`, { token: owner.token });
    expect(members.body.map((m: { user_id: string }) => m.user_id)).toEqual([owner.id]);
    expect((await call("GET", `/api/workspaces/${workspace.id}/board`, { token: member.token })).status).toBe(404);
    // Gone already: 404.
    const again = await call("DELETE", `/api/workspaces/${workspace.id}/members/${member.id}`, { token: owner.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: "Member not found" });
  });

  it("refuses members (403) and non-members (404)", async () => {
    const owner = await newUser();
    const member = await newUser();
    const stranger = await newUser();
    const workspace = await newWorkspace(owner.token);
    await addMember(owner.token, workspace.id, member.username);
    const byMember = await call("DELETE", `/api/workspaces/${workspace.id}/members/${owner.id}`, { token: member.token });
    expect(byMember.status).toBe(403);
    expect(byMember.body.detail).toBe("Only workspace owners may do this");
    const byStranger = await call("DELETE", `/api/workspaces/${workspace.id}/members/${member.id}`, { token: stranger.token });
    expect(byStranger.status).toBe(404);
    const notAMember = await call("DELETE", `/api/workspaces/${workspace.id}/members/${stranger.id}`, { token: owner.token });
    expect(notAMember.status).toBe(404);
    expect((await call("GET", `/api/workspaces/${workspace.id}/members`, { token: owner.token })).body).toHaveLength(2);
  });

  it("never removes the last owner (409), also when two owners remove each other at once", async () => {
    const first = await newUser();
    const second = await newUser();
    const workspace = await newWorkspace(first.token);
    const alone = await call("DELETE", `/api/workspaces/${workspace.id}/members/${first.id}`, { token: first.token });
    expect(alone.status).toBe(409);
    expect(alone.body.detail).toMatch(/last owner/);

    await addMember(first.token, workspace.id, second.username, "owner");
    const [a, b] = await Promise.all([
      call("DELETE", `/api/workspaces/${workspace.id}/members/${second.id}`, { token: first.token }),
      call("DELETE", `/api/workspaces/${workspace.id}/members/${first.id}`, { token: second.token }),
    ]);
    // One wins; the other finds either one owner left (409) or itself removed already (404).
    expect([a.status, b.status].filter((status) => status === 204)).toHaveLength(1);
    const left = await call("GET", `/api/workspaces/${workspace.id}/members`, { token: a.status === 204 ? first.token : second.token });
    expect(left.body).toHaveLength(1);
    expect(left.body[0].role).toBe("owner");
  });

  it("lets an owner leave when another owner remains", async () => {
    const first = await newUser();
    const second = await newUser();
    const workspace = await newWorkspace(first.token);
    await addMember(first.token, workspace.id, second.username, "owner");
    expect((await call("DELETE", `/api/workspaces/${workspace.id}/members/${first.id}`, { token: first.token })).status).toBe(204);
    expect((await call("GET", `/api/workspaces/${workspace.id}`, { token: first.token })).status).toBe(404);
  });

  it("is documented in /openapi.json", async () => {
    const document = await call("GET", "/openapi.json");
    const operation = document.body.paths["/api/workspaces/{id}/members/{user_id}"].delete;
    expect(operation.operationId).toBe("removeMember");
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["204", "403", "404", "409"]));
  });
});
