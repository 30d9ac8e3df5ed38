import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { parseDiagnostics } from "./api";
import { NO_SMTP_NOTE, OutboxCard } from "./outbox-card";

// diagnostics()'s outbox as the server answers it without SMTP.
const answer = {
  version: "1.0.0",
  database: "sqlite",
  mail_sender: "log",
  outbox: [
    {
      id: 2,
      to: "mara@example.com",
      subject: "Confirm your e-mail address",
      kind: "signup",
      status: "logged",
      attempts: 1,
      created_at: "2026-03-01T10:00:00Z",
      sent_at: "2026-03-01T10:00:01Z",
      last_error: "",
      links: ["https://review.example.com/auth/v1/verify?token=abc&type=signup"],
    },
    { id: 1, to: "owner@example.com", subject: "Reset your password", kind: "recovery", status: "logged", attempts: 1, created_at: "2026-03-01T09:00:00Z", sent_at: null, last_error: "", links: [] },
  ],
};

describe("OutboxCard", () => {
  it("lists each message's links, copyable, with the note that nothing is sent", async () => {
    const d = parseDiagnostics(answer);
    const writeText = vi.fn(() => Promise.resolve());
    const user = userEvent.setup();
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    render(<OutboxCard messages={d.outbox ?? []} mailSender={d.mailSender} />);

    expect(screen.getByText(NO_SMTP_NOTE)).toBeInTheDocument();
    const links = screen.getByRole("list", { name: "Links of the e-mail to mara@example.com" });
    const link = within(links).getByRole("link");
    expect(link).toHaveAttribute("href", "https://review.example.com/auth/v1/verify?token=abc&type=signup");
    expect(screen.queryByRole("list", { name: "Links of the e-mail to owner@example.com" })).not.toBeInTheDocument();

    await user.click(within(links).getByRole("button", { name: "Copy link for mara@example.com" }));
    expect(writeText).toHaveBeenCalledWith("https://review.example.com/auth/v1/verify?token=abc&type=signup");
  });

  it("says nothing about links when e-mails are delivered by SMTP", () => {
    const d = parseDiagnostics({ ...answer, mail_sender: "smtp", outbox: [{ ...answer.outbox[1] }] });
    render(<OutboxCard messages={d.outbox ?? []} mailSender={d.mailSender} />);
    expect(screen.queryByText(NO_SMTP_NOTE)).not.toBeInTheDocument();
    expect(screen.queryByRole("link")).not.toBeInTheDocument();
    expect(screen.getByText("owner@example.com")).toBeInTheDocument();
  });
});
