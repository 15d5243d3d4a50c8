import { describe, expect, it } from "vitest";
import { SecretBox } from "../../backend/lib/crypto.js";

describe("SecretBox (secrets at rest)", () => {
  const box = new SecretBox("a".repeat(43));
  it("round-trips and never stores the plain text", () => {
    const sealed = box.seal({ password: "hunter2-secret" });
    expect(sealed).not.toContain("hunter2");
    expect(box.open(sealed)).toEqual({ password: "hunter2-secret" });
  });
  it("uses a fresh IV every time", () => {
    expect(box.seal("x")).not.toBe(box.seal("x"));
  });
  it("refuses a tampered ciphertext or another key", () => {
    const sealed = box.seal("value");
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => box.open(parts.join("."))).toThrow();
    expect(() => new SecretBox("b".repeat(43)).open(sealed)).toThrow();
  });
});
