import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { mentionMatches, mentionParts, mentionQuery, MentionTextarea, type MentionPerson } from "./mention-textarea";

// @mentions: the members offered while a name is typed, what picking one
// writes, and how a written text shows its mentions.

const people: MentionPerson[] = [
  { id: "1", name: "Mara Marketer", detail: "mara@example.com" },
  { id: "2", name: "Dr. Mei Medical" },
  { id: "3", name: "Lou Legal" },
  { id: "4", name: "Marcus Aurel" },
];

describe("mentions in a text", () => {
  it("notices an @ being typed at the start or after white space, up to the caret", () => {
    expect(mentionQuery("Hello @Ma", 9)).toEqual({ at: 6, query: "Ma" });
    expect(mentionQuery("@", 1)).toEqual({ at: 0, query: "" });
    expect(mentionQuery("Hi @Mei Med", 11)).toEqual({ at: 3, query: "Mei Med" });
    expect(mentionQuery("mail me@example.com", 19)).toBeNull();
    expect(mentionQuery("@Mara\nthanks", 12)).toBeNull();
    expect(mentionQuery("no mention", 10)).toBeNull();
  });

  it("offers names starting with the query first, then names with a word starting so", () => {
    expect(mentionMatches(people, "mar").map((p) => p.name)).toEqual(["Mara Marketer", "Marcus Aurel"]);
    expect(mentionMatches(people, "med").map((p) => p.name)).toEqual(["Dr. Mei Medical"]);
    expect(mentionMatches(people, "").map((p) => p.name)).toEqual(["Dr. Mei Medical", "Lou Legal", "Mara Marketer", "Marcus Aurel"]);
    expect(mentionMatches(people, "zzz")).toEqual([]);
  });

  it("marks the mentions of known names, the longest name first", () => {
    expect(mentionParts("@Mara Marketer please cite it, cc @Lou Legal.", ["Lou Legal", "Mara", "Mara Marketer"])).toEqual([
      { text: "@Mara Marketer", mention: true },
      { text: " please cite it, cc ", mention: false },
      { text: "@Lou Legal", mention: true },
      { text: ".", mention: false },
    ]);
    expect(mentionParts("mail mara@x.com or @Nobody", ["Mara Marketer"])).toEqual([{ text: "mail mara@x.com or @Nobody", mention: false }]);
  });
});

function Box() {
  const [value, setValue] = useState("");
  return (
    <label>
      Reply
      <MentionTextarea people={people} value={value} onChange={setValue} />
    </label>
  );
}

describe("MentionTextarea", () => {
  it("offers members while @name is typed and writes the one picked with the keyboard", async () => {
    render(<Box />);
    const u = userEvent.setup();
    const box = screen.getByRole("combobox", { name: "Reply" });
    await u.type(box, "Thanks @mar");
    expect(box).toHaveAttribute("aria-expanded", "true");
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["Mara Marketermara@example.com", "Marcus Aurel"]);
    await u.keyboard("{ArrowDown}{Enter}");
    expect(box).toHaveValue("Thanks @Marcus Aurel ");
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
    await u.type(box, "and @lou");
    await u.keyboard("{Escape}");
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
    expect(box).toHaveValue("Thanks @Marcus Aurel and @lou");
  });
});
