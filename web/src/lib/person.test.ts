import { describe, expect, it } from "vitest";
import { greeting, greetingName, initials, nameWords } from "./person";

describe("initials", () => {
  it("come from the full name, else the e-mail's local part", () => {
    expect(initials("Ada Lovelace", "ada@x.io")).toBe("AL");
    expect(initials("", "grace.hopper@example.com")).toBe("GH");
    expect(initials(null, "admin@acme-pharma.com")).toBe("AD");
    expect(initials("  ", "")).toBe("?");
  });

  it("skip titles and post-nominals", () => {
    expect(initials("Dr. Mei Medical")).toBe("MM");
    expect(initials("Prof. Dr. Ana Pérez, PhD")).toBe("AP");
    expect(initials("Mei Medical, MD")).toBe("MM");
    expect(initials("Dr.", "mei@x.io")).toBe("ME");
  });

  it("are the same whether a screen passes the name or, lacking one, the e-mail in its place", () => {
    // A list that shows the e-mail where there is no name must not turn
    // "admin@acme-pharma.com" into "AP" while the top bar shows "AD".
    const email = "admin@acme-pharma.com";
    expect(initials(email, email)).toBe(initials("", email));
    expect(initials("grace.hopper@example.com")).toBe("GH");
  });

  it("keep letters beyond ASCII", () => {
    expect(initials("Élodie Ørsted")).toBe("ÉØ");
    expect(initials("李 小龍")).toBe("李小");
  });
});

describe("greetingName", () => {
  it("greets by the first word of the name that is not a title", () => {
    expect(greetingName("Ada Lovelace", "ada@x.io")).toBe("Ada");
    expect(greetingName("Dr. Mei Medical", "reviewer.medical@demo.test")).toBe("Mei");
    expect(greetingName("Dr Mei", null)).toBe("Mei");
    expect(greetingName("Prof. Dr. Ana Pérez", null)).toBe("Ana");
  });

  it("never greets by a title alone: the e-mail's local part, else nothing", () => {
    expect(greetingName("Dr.", "mei@x.io")).toBe("mei");
    expect(greetingName("  ", "grace@x.io")).toBe("grace");
    expect(greetingName("Dr.", null)).toBe("");
    expect(greetingName(null, null)).toBe("");
  });

  it("greets by first name, else by the e-mail's local part", () => {
    expect(greetingName("Ada Lovelace", "ada@x.io")).toBe("Ada");
    expect(greetingName("  ", "grace@x.io")).toBe("grace");
    expect(greetingName(null, null)).toBe("");
  });

  it("reads the words of a name", () => {
    expect(nameWords("  Mary   Marketer ")).toEqual(["Mary", "Marketer"]);
    expect(nameWords("Mrs. Mary O'Brien-Smith, Jr.")).toEqual(["Mary", "O'Brien-Smith"]);
  });
});

describe("greeting", () => {
  it("follows the time of day", () => {
    expect(greeting(new Date(2026, 4, 10, 8))).toBe("Good morning");
    expect(greeting(new Date(2026, 4, 10, 13))).toBe("Good afternoon");
    expect(greeting(new Date(2026, 4, 10, 20))).toBe("Good evening");
  });
});
