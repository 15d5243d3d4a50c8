import { expect, type Page } from "@playwright/test";

/**
 * The transforms wizard for one e-mail template on a connector whose source syncs `email_messages` (Gmail, Outlook),
 * from the details screen to Create: details → template (only the E-mail insights are offered) → permissions (four
 * steps) → configure (the template's inputs, a preview counting the synced messages) → Create. JS on and off.
 */
export async function createEmailTransform(
  page: Page,
  jsEnabled: boolean,
  options: { connector: string; name: string; templateId: string; templateName: string; type: string; inputs: string[]; templates: string[] },
): Promise<void> {
  await page.goto("/transforms/add");
  await page.getByLabel("Transform name").fill(options.name);
  await page.getByLabel("Connector", { exact: true }).selectOption({ label: options.connector });
  // An e-mail connector's data comes as .json and .txt files.
  await page.getByLabel("File type").selectOption(".txt");
  await page.getByLabel("Use Templates").check();
  await page.getByRole("button", { name: "Continue", exact: true }).click();

  await expect(page).toHaveURL(/\/transforms\/templates\/select/);
  const category = page.getByLabel("Category", { exact: true });
  await expect(category).toHaveValue("email_insights");
  await expect(category.locator("option")).toHaveText(["E-mail insights"]);
  await expect(page.getByLabel("Template", { exact: true }).locator("option")).toHaveText(options.templates);
  await page.getByLabel("Template", { exact: true }).selectOption(options.templateId);
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this template" }).click();
  await expect(page.getByRole("heading", { name: options.templateName, exact: true })).toBeVisible();
  await expect(page.getByRole("list", { name: "Requirements" })).toContainText("Read access to the email_messages table");
  await page.getByRole("button", { name: "Continue", exact: true }).click();

  await expect(page).toHaveURL(/\/transforms\/templates\/permissions$/);
  await expect(page.getByText("Step 1 of 4")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Connect the e-mail messages" })).toBeVisible();
  for (const step of [2, 3, 4]) {
    await page.getByRole("button", { name: "Next step" }).click();
    await expect(page.getByText(`Step ${step} of 4`)).toBeVisible();
  }
  await page.getByRole("button", { name: "Continue to configuration" }).click();

  await expect(page).toHaveURL(new RegExp(`/transforms/templates/config/${options.templateId}$`));
  for (const label of options.inputs) await expect(page.getByLabel(label).first()).toBeVisible();
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("transform-preview")).toContainText(options.type);
  expect(Number((await page.getByTestId("record-count").textContent())!.replace(/,/g, ""))).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Create Transform" }).click();
}
