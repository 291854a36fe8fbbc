import { expect, test } from "@playwright/test";
import { startReceiver, verifies } from "../fixtures/webhook-receiver";
import { Api, signIn } from "./helpers";

// Settings → Webhooks: an owner adds an endpoint (a local receiver; the Playwright server allows
// private addresses), copies the secret shown once, sees the delivery of a new task and redelivers it.

test("add a webhook in Settings, see its delivery and redeliver it", async ({ page, request }) => {
  const receiver = await startReceiver();
  try {
    const api = await Api.asAdmin(request);
    const ws = await api.workspace();
    await signIn(page, `/w/${ws.id}/settings`);
    const section = page.getByRole("region", { name: "Webhooks" });
    await expect(section.getByText("No webhooks yet.")).toBeVisible();

    const form = section.getByRole("form", { name: "Add a webhook" });
    await form.getByLabel("Payload URL").fill(receiver.url);
    await form.getByLabel("Description (optional)").fill("Local receiver");
    await form.getByLabel("Only these:").check();
    await form.getByLabel("task.created").check();
    await form.getByRole("button", { name: "Add webhook" }).click();

    const secret = await section.getByLabel("Webhook signing secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    await section.getByRole("button", { name: "Done" }).click();
    await expect(section.getByLabel("Webhook signing secret")).toHaveCount(0);

    const item = section.getByTestId("webhook-item");
    await expect(item).toContainText(receiver.url);
    await expect(item).toContainText("Events: task.created");
    await expect(item).toContainText(`secret …${secret.slice(-4)}`);

    await api.task(ws.id, { title: "Hooked task", status: "todo" });
    await expect.poll(() => receiver.received.length).toBe(1);
    expect(verifies(secret, receiver.received[0].body, receiver.received[0].headers["x-taskboard-signature-256"])).toBe(true);

    await item.getByRole("button", { name: "Recent deliveries" }).click();
    const deliveries = item.getByTestId("webhook-delivery");
    await expect(deliveries).toHaveCount(1);
    await expect(deliveries.first()).toContainText("succeeded");
    await expect(deliveries.first()).toContainText("task.created");
    await expect(deliveries.first()).toContainText("HTTP 200");
    await deliveries.first().getByText("Request body").click();
    await expect(deliveries.first().locator("pre")).toContainText('"title": "Hooked task"');

    await deliveries
      .first()
      .getByRole("button", { name: /^Redeliver/ })
      .click();
    await expect(deliveries).toHaveCount(2);
    await expect(deliveries.first()).toContainText("redelivery");
    await expect(deliveries.first()).toContainText("succeeded");
    await expect.poll(() => receiver.received.length).toBe(2);
    expect(receiver.received[1].body).toBe(receiver.received[0].body);
    await section.screenshot({ path: "tests/artifacts/webhooks-settings.png" });

    await item.getByRole("button", { name: "Disable" }).click();
    await expect(item).toContainText("Disabled");
  } finally {
    await receiver.stop();
  }
});
