import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FORM_MESSAGES, readForm } from "~/services/form.server";
import { isRecordId } from "~/services/records.server";

const post = (body: BodyInit | null, contentType?: string) =>
  new Request("http://localhost/x", { method: "POST", body, headers: contentType === undefined ? {} : { "content-type": contentType } });

/** What readForm throws: the Response's status and text. */
async function refusal(request: Request): Promise<{ status: number; text: string }> {
  try {
    await readForm(request);
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, text: await thrown.text() };
    throw thrown;
  }
  throw new Error("readForm accepted the request");
}

describe("readForm", () => {
  it("returns the FormData of a url-encoded or multipart form, duplicates and all", async () => {
    const form = await readForm(post("name=a&name=b&description=%C3%A9", "application/x-www-form-urlencoded; charset=UTF-8"));
    expect(form.getAll("name")).toEqual(["a", "b"]);
    expect(form.get("description")).toBe("é");
    const fd = new FormData();
    fd.append("intent", "create");
    const multipart = await readForm(new Request("http://localhost/x", { method: "POST", body: fd }));
    expect(multipart.get("intent")).toBe("create");
    expect([...(await readForm(post("", "application/x-www-form-urlencoded")))]).toEqual([]);
  });

  it("refuses what is not a web form with 415 and a plain sentence", async () => {
    for (const type of ["application/json", "text/plain", "text/plain; charset=application/json", "application/xml", "multipart/mixed; boundary=x", "nonsense", ";;"]) {
      expect(await refusal(post('{"name":"x"}', type)), type).toEqual({ status: 415, text: FORM_MESSAGES.unsupportedType });
    }
    expect(await refusal(post(null))).toEqual({ status: 415, text: FORM_MESSAGES.unsupportedType });
    expect(await refusal(post(new Uint8Array([110, 61, 49])))).toEqual({ status: 415, text: FORM_MESSAGES.unsupportedType });
  });

  it("refuses a broken multipart body with 400", async () => {
    const part = '--x\r\ncontent-disposition: form-data; name="name"\r\n\r\nA';
    expect((await refusal(post(part, "multipart/form-data; boundary=x"))).status).toBe(400);
    expect((await refusal(post(`${part}\r\n--x--\r\n`, "multipart/form-data"))).status).toBe(400);
    expect((await refusal(post(`${part}\r\n--x--\r\n`, "multipart/form-data; boundary=y"))).status).toBe(400);
  });

  it("refuses NUL characters in names or values, and files, with 400", async () => {
    expect(await refusal(post("name=a%00b", "application/x-www-form-urlencoded"))).toEqual({ status: 400, text: FORM_MESSAGES.nul });
    expect(await refusal(post("a%00=b", "application/x-www-form-urlencoded"))).toEqual({ status: 400, text: FORM_MESSAGES.nul });
    const fd = new FormData();
    fd.append("name", new Blob(["hello"]), "a.txt");
    expect(await refusal(new Request("http://localhost/x", { method: "POST", body: fd }))).toEqual({ status: 400, text: FORM_MESSAGES.file });
  });

  it("never throws anything but a 400/415 Response, whatever the bytes and media type", async () => {
    const types = fc.oneof(fc.constantFrom("application/x-www-form-urlencoded", "multipart/form-data; boundary=b", "multipart/form-data"), fc.string({ maxLength: 30 }));
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 500 }), types, async (bytes, type) => {
        let headerOk = true;
        let request: Request;
        try {
          request = post(new Uint8Array(bytes), type);
        } catch {
          headerOk = false; // a header value the platform itself refuses to send
        }
        if (!headerOk) return;
        try {
          const form = await readForm(request!);
          for (const [name, value] of form) expect(typeof value === "string" && !name.includes("\0") && !value.includes("\0")).toBe(true);
        } catch (thrown) {
          expect(thrown).toBeInstanceOf(Response);
          expect([400, 415]).toContain((thrown as Response).status);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("isRecordId", () => {
  it("accepts UUIDs only", () => {
    expect(isRecordId("3f2c1a7e-9b4d-4e6f-8a1b-2c3d4e5f6a7b")).toBe(true);
    for (const id of [undefined, "", "not-a-uuid", "3f2c1a7e-9b4d-4e6f-8a1b-2c3d4e5f6a7", "3f2c1a7e-9b4d-4e6f-8a1b-2c3d4e5f6a7g", " 3f2c1a7e-9b4d-4e6f-8a1b-2c3d4e5f6a7b"]) {
      expect(isRecordId(id), String(id)).toBe(false);
    }
  });
});
