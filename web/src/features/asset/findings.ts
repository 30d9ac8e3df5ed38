import type { TextTarget } from "@/entities/annotations";
import type { VersionFinding } from "@/entities/compliance";
import { canWriteContent } from "@/lib/content-types";
import { isAdminRole } from "@/lib/roles";
import { isReviewerRole } from "@/lib/review-types";
import { pageOfOffset } from "./annotation-threads";
import type { Viewer } from "./review-rules";

/**
 * A version's compliance findings as the asset page shows them, pure so
 * they are tested without a browser: who may dismiss and reopen (the
 * server decides; these only choose what to offer), and the findings the
 * document viewer marks, each on its page.
 */

/** Dismissing with a reason: those who write content (owner, admin, marketer) and reviewers. */
export function canDismissFinding(viewer: Viewer): boolean {
  if (viewer.readOnly || !viewer.userId) return false;
  return canWriteContent(viewer.role) || isReviewerRole(viewer.role);
}

/** Reopening a dismissed finding: reviewers and admins (owners included). */
export function canReopenFinding(viewer: Viewer): boolean {
  if (viewer.readOnly || !viewer.userId) return false;
  return isReviewerRole(viewer.role) || isAdminRole(viewer.role);
}

/** A finding the viewer marks: an open one with a text target, on its page. */
export interface FindingMark {
  id: string;
  rule: string;
  severity: string;
  page: number;
  target: TextTarget;
}

/**
 * The open findings the viewer marks, each on the page its start falls on
 * (`starts`: where each page starts in the text, code points); a finding
 * without a text target is listed, not marked.
 */
export function findingMarks(findings: readonly VersionFinding[], starts: readonly number[]): FindingMark[] {
  const out: FindingMark[] = [];
  for (const f of findings) {
    const target = f.target;
    if (f.state !== "open" || target?.type !== "text" || target.exact === "") continue;
    const start = target.start ?? f.start;
    const page = f.sort_page ?? (starts.length > 0 ? pageOfOffset(starts, start) : 1);
    out.push({ id: f.id, rule: f.rule, severity: f.severity, page, target });
  }
  return out;
}
