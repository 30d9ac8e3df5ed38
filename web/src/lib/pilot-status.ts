import { useQuery } from "@tanstack/react-query";
import { useAuth } from "./auth";
import { canWriteContent, canWriteProducts } from "./content-types";
import { unwrap } from "./data";
import { isAdminRole } from "./roles";
import { getSupabase } from "./supabase";

// The pilot checklist as the server ticks it (rpc pilot_status), shared by
// the Command Center (progress and next step) and the Pilot checklist
// screen, so both read one cached answer and agree on what "done" means.

/** One step of the pilot checklist. */
export interface PilotStep {
  key: string;
  title: string;
  done: boolean;
  /** What the server found, e.g. "2 invited, 1 member besides the creator". */
  detail: string;
}

/** pilot_status()'s answer. */
export interface PilotStatus {
  steps: PilotStep[];
  done_count: number;
  total: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads pilot_status()'s JSON defensively: malformed steps are dropped and
 * the counts are recomputed from the steps, so a partial answer can never
 * show more progress than the steps it lists.
 */
export function parsePilotStatus(value: unknown): PilotStatus {
  const raw = isRecord(value) && Array.isArray(value.steps) ? value.steps : [];
  const steps: PilotStep[] = [];
  for (const s of raw) {
    if (!isRecord(s) || typeof s.key !== "string" || typeof s.title !== "string") continue;
    steps.push({
      key: s.key,
      title: s.title,
      done: s.done === true,
      detail: typeof s.detail === "string" ? s.detail : "",
    });
  }
  return { steps, done_count: steps.filter((s) => s.done).length, total: steps.length };
}

/** Percentage of steps done, 0–100, rounded down so 100 means every step. */
export function pilotProgress(status: Pick<PilotStatus, "done_count" | "total">): number {
  if (status.total <= 0) return 0;
  const ratio = Math.min(Math.max(status.done_count, 0), status.total) / status.total;
  return Math.floor(ratio * 100);
}

/**
 * Whether a step belongs to a capability this release does not have yet:
 * the server never ticks those and says so in the detail ("Available when
 * … is built"), so the screens show them as coming later instead of as work
 * the team could do today.
 */
export function pilotStepUnavailable(step: PilotStep): boolean {
  return !step.done && /^available when\b/i.test(step.detail.trim());
}

/** The first step the team can act on now, or undefined when none is left. */
export function nextPilotStep(status: PilotStatus): PilotStep | undefined {
  return status.steps.find((s) => !s.done && !pilotStepUnavailable(s));
}

/** Where in the app a step is done, with the words of the link. */
export interface PilotStepLink {
  to: string;
  label: string;
}

type Role = string | null | undefined;

const isReviewer = (role: Role) => role === "reviewer_medical" || role === "reviewer_legal" || role === "reviewer_regulatory";

/**
 * Each step's screen, who may do the step there (product.md §2), and how
 * the checklist names them to everyone else.
 */
const STEP_ACTIONS: Record<string, PilotStepLink & { may: (role: Role) => boolean; by: string }> = {
  org_created: { to: "/settings", label: "Organization settings", may: isAdminRole, by: "an administrator" },
  members_invited: { to: "/users", label: "Invite people", may: isAdminRole, by: "an administrator" },
  reviewers_joined: { to: "/users", label: "Invite reviewers", may: isAdminRole, by: "an administrator" },
  admin_mfa: { to: "/security", label: "Set up two-factor authentication", may: isAdminRole, by: "each administrator" },
  security_reviewed: { to: "/settings", label: "Review security settings", may: isAdminRole, by: "an administrator" },
  audit_verified: { to: "/audit-log", label: "Verify in the Audit Log", may: () => true, by: "any member" },
  first_product: { to: "/settings", label: "Add a product in Settings", may: canWriteProducts, by: "an administrator" },
  first_asset: { to: "/content-hub", label: "Create an asset in the Content Hub", may: canWriteContent, by: "a marketer or an administrator" },
  first_review: { to: "/review", label: "Open the Review Center", may: canWriteContent, by: "a marketer or an administrator" },
  first_esign_approval: { to: "/review", label: "Open the Review Center", may: isReviewer, by: "a reviewer" },
};

/**
 * The screen where a member with `role` does a step; undefined when their
 * role cannot do it (the server would refuse them) or the client does not
 * know the step. Without a role (still loading) there is none, so no
 * button shows that then disappears.
 */
export function pilotStepLink(key: string, role: Role): PilotStepLink | undefined {
  const action = STEP_ACTIONS[key];
  if (!action || !role || !action.may(role)) return undefined;
  return { to: action.to, label: action.label };
}

/** Who does a step, for those who cannot: "Done by an administrator". */
export function pilotStepDoneBy(key: string): string | undefined {
  const action = STEP_ACTIONS[key];
  return action ? `Done by ${action.by}` : undefined;
}

export const PILOT_STATUS_QUERY_KEY = "pilot-status";

/**
 * The caller's organisation's pilot checklist. Enabled only for a signed-in
 * member of an organisation (the server has nothing to tick otherwise).
 */
export function usePilotStatus(enabled = true) {
  const { user } = useAuth();
  return useQuery({
    queryKey: [PILOT_STATUS_QUERY_KEY, user?.id],
    enabled: enabled && Boolean(user),
    // Steps are ticked by work done on other screens (invites, settings,
    // audit verification): refetch on every visit, showing the last answer
    // meanwhile.
    staleTime: 0,
    queryFn: async (): Promise<PilotStatus> => {
      const sb = await getSupabase();
      return parsePilotStatus(unwrap(await sb.rpc("pilot_status")));
    },
  });
}
