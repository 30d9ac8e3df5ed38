import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { type ChainVerification, parseSealStatus, parseVerification, type SealStatus } from "./api";
import { SealRow } from "./seal-row";
import { sealComparison, sealHeadline, shortHash } from "./verification";

const hash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const sealed: SealStatus = {
  sealing: "on",
  intervalSeconds: 60,
  checkpoint: { at: "2026-03-10T11:58:00Z", seq: 1234, hash, keyId: "139e3940e64b5491", signatureOk: true },
  refused: null,
};

function verification(checkpoint: ChainVerification["checkpoint"]): ChainVerification {
  return { ok: true, checked: 1240, firstBrokenId: null, headId: 1240, reason: null, verifiedAt: "2026-03-10T12:00:00Z", actorId: null, checkpoint };
}

describe("parseSealStatus", () => {
  it("reads audit_checkpoint()'s answer", () => {
    expect(
      parseSealStatus({
        sealing: "on",
        interval_seconds: 60,
        checkpoint: { at: "2026-03-10T11:58:00Z", seq: 1234, hash, key_id: "139e3940e64b5491", signature_ok: true },
        refused: null,
      }),
    ).toEqual(sealed);
  });

  it("has no checkpoint before the first seal, and keeps why sealing stopped", () => {
    expect(parseSealStatus({ sealing: "failing", interval_seconds: 60, checkpoint: null, refused: "entry 5 no longer has the hash sealed" })).toEqual({
      sealing: "failing",
      intervalSeconds: 60,
      checkpoint: null,
      refused: "entry 5 no longer has the hash sealed",
    });
    expect(parseSealStatus({ sealing: "weird", checkpoint: { at: "x" } }).sealing).toBe("off");
    expect(parseSealStatus({ sealing: "on", checkpoint: { at: "x" } }).checkpoint).toBeNull();
  });

  it("refuses an answer of another shape", () => {
    expect(() => parseSealStatus([])).toThrow(/unexpected format/);
  });
});

describe("parseVerification", () => {
  it("reads the checkpoint the chain was compared with", () => {
    const v = parseVerification({ ok: false, checked: 10, first_broken_id: 8, head_id: 10, reason: "checkpoint mismatch: …", verified_at: "2026-03-10T12:00:00Z", checkpoint: { at: "2026-03-10T11:58:00Z", seq: 8, hash, key_id: "k", matches: false } });
    expect(v.checkpoint).toEqual({ at: "2026-03-10T11:58:00Z", seq: 8, hash, matches: false });
    expect(parseVerification({ ok: true, checked: 1, checkpoint: null }).checkpoint).toBeNull();
  });
});

describe("the seal's wording", () => {
  it("names the last sealed entry", () => {
    expect(sealHeadline(sealed)).toBe("Sealed up to entry #1,234");
    expect(sealHeadline({ sealing: "on", checkpoint: null })).toBe("Not sealed yet");
    expect(sealHeadline({ sealing: "off", checkpoint: null })).toBe("Not sealed");
    expect(shortHash(hash)).toBe("9f86d081884c…");
  });

  it("compares the chain with the checkpoint as the last verification did", () => {
    expect(sealComparison(sealed.checkpoint, null)).toEqual({ tone: "unknown", text: "Not compared yet — verify the chain to check it against this checkpoint" });
    expect(sealComparison(sealed.checkpoint, verification({ at: "2026-03-10T11:58:00Z", seq: 1234, hash, matches: true }))).toEqual({
      tone: "ok",
      text: "The chain matches this checkpoint",
    });
    expect(sealComparison(sealed.checkpoint, verification({ at: "2026-03-10T11:50:00Z", seq: 1200, hash, matches: true })).text).toBe(
      "The chain matched the checkpoint of entry #1,200 when last verified",
    );
    expect(sealComparison(sealed.checkpoint, verification({ at: "2026-03-10T11:58:00Z", seq: 1234, hash, matches: false }))).toEqual({
      tone: "broken",
      text: "The chain does not match the checkpoint of entry #1,234",
    });
    expect(sealComparison(sealed.checkpoint && { ...sealed.checkpoint, signatureOk: false }, null).tone).toBe("broken");
    expect(sealComparison(null, null)).toEqual({ tone: "unknown", text: "" });
  });
});

describe("SealRow", () => {
  it("says the chain is not sealed yet, and how it will be", () => {
    render(<SealRow seal={{ ...sealed, checkpoint: null }} loading={false} failed={false} verification={null} running={false} />);
    expect(screen.getByTestId("seal-panel")).toHaveAttribute("data-state", "unsealed");
    expect(screen.getByTestId("seal-status")).toHaveTextContent("Not sealed yet");
    expect(screen.getByText(/signs the chain’s latest entry at least every minute while it grows/)).toBeInTheDocument();
    expect(screen.queryByTestId("seal-comparison")).toBeNull();
  });

  it("shows the checkpoint and that the chain matches it", () => {
    render(
      <SealRow seal={sealed} loading={false} failed={false} verification={verification({ at: "2026-03-10T11:58:00Z", seq: 1234, hash, matches: true })} running={false} />,
    );
    expect(screen.getByTestId("seal-panel")).toHaveAttribute("data-state", "sealed");
    expect(screen.getByTestId("seal-status")).toHaveTextContent("Sealed up to entry #1,234");
    expect(screen.getByText("9f86d081884c…")).toHaveAttribute("title", hash);
    expect(screen.getByText("139e3940e64b5491")).toBeInTheDocument();
    expect(screen.getByTestId("seal-comparison")).toHaveTextContent("The chain matches this checkpoint");
  });

  it("raises a mismatch and why the server stopped sealing", () => {
    render(
      <SealRow
        seal={{ ...sealed, refused: "entry 1234 no longer has the hash sealed on 2026-03-10T11:58:00Z" }}
        loading={false}
        failed={false}
        verification={verification({ at: "2026-03-10T11:58:00Z", seq: 1234, hash, matches: false })}
        running={false}
      />,
    );
    expect(screen.getByTestId("seal-panel")).toHaveAttribute("data-state", "mismatch");
    expect(screen.getByTestId("seal-comparison")).toHaveTextContent("The chain does not match the checkpoint of entry #1,234");
    expect(screen.getByRole("alert")).toHaveTextContent("Sealing stopped: entry 1234 no longer has the hash sealed");
  });

  it("says when the server does not seal, or the seal cannot be read", () => {
    const { rerender } = render(<SealRow seal={{ sealing: "off", intervalSeconds: null, checkpoint: null, refused: null }} loading={false} failed={false} verification={null} running={false} />);
    expect(screen.getByTestId("seal-panel")).toHaveAttribute("data-state", "off");
    expect(screen.getByText(/does not seal the audit trail/)).toBeInTheDocument();
    rerender(<SealRow seal={null} loading={false} failed verification={null} running={false} />);
    expect(screen.getByText("The checkpoint could not be loaded.")).toBeInTheDocument();
  });
});
