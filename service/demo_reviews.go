package service

import (
	"crypto/ed25519"
	"fmt"
	"time"

	"fairbalance"
)

// The demo's review history (issue 15): every demo asset that stands in
// review, asks for changes, is approved (then perhaps expired or
// withdrawn) or rejected got there through real rounds — submitted by the
// demo marketer, claimed and decided by the demo reviewers with sealed
// signatures, change requests marked done and confirmed on the next
// version, expired by the expiry sweep's own code — back-dated over the
// past weeks and months with a clock of the seeder's own, so the Review
// Center, the Command Center and the asset pages show real work: rounds in
// review with claimed and unclaimed steps (one overdue), a round closed
// with change requests and a second round on the next version, approvals
// with their expiry dates (one within 30 days), an expired, a withdrawn
// and a rejected asset.
//
// Signing needs the instance's signature key (DataConfig.SignatureKey, set
// by serve); a registry without it seeds the content with the statuses set
// directly and no history.

// demoHistory plays one asset's history: versions made and rounds run at
// the times the script names. The first error stops the rest.
type demoHistory struct {
	s        *seeder
	rv       *Reviews
	a        demoAsset
	products map[string]string
	modules  map[string]*demoModuleRef
	clock    time.Time
	assetID  string
	versions int
	steps    map[string]string // the current round's step ids by role
	threads  []string          // the annotation threads made, in order
	err      error
}

// demoHistories are the scripts by asset title. Times are (days ago, hour
// of the day UTC); each script keeps its own events in order.
var demoHistories = map[string]func(h *demoHistory){
	// Round 1 open on the third version: legal claimed and approved,
	// medical claimed (active), regulatory active and unclaimed.
	"Cardiomax launch email for cardiologists": func(h *demoHistory) {
		h.version(0, 9, 10)
		h.version(1, 7, 14)
		h.version(2, 3, 9)
		h.submit(3, 11)
		h.claim(fairbalance.RoleReviewerLegal, 2, 9)
		h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionApproved, 2, 15, "Fair balance and the HCP disclaimer are in place.")
		h.claim(fairbalance.RoleReviewerMedical, 1, 10)
	},
	// Round 1 on version 1 asked for changes; both were made in version
	// 2 and round 2 is open on it, past its due date: medical (claimed)
	// has still to confirm the changes and decide.
	"Respira COPD detail aid": func(h *demoHistory) {
		h.version(0, 16, 10)
		h.submit(16, 11)
		h.claim(fairbalance.RoleReviewerMedical, 15, 9)
		h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionApproved, 14, 11, "No legal concerns for the UK adaptation.")
		h.decide(fairbalance.RoleReviewerRegulatory, fairbalance.DecisionApprovedWithChanges, 14, 16, "Approved; keep the prescribing information reference on the last page.")
		h.annotate(fairbalance.RoleReviewerMedical, fairbalance.CategoryClaimNeedsReference, "improved lung function by 127 mL versus placebo at one year",
			"Which study and endpoint? Trough FEV1 at week 52 in TIO-BREATHE, I assume: cite it under the claim.", 15, 11)
		h.annotate(fairbalance.RoleReviewerRegulatory, fairbalance.CategoryFairBalance, "Important Safety Information",
			"The ISI must be as prominent as the efficacy claim for UK field use. @Maya Marketer, can the heading match the claim's size?", 14, 15)
		h.reply(fairbalance.RoleMarketer, 1, "Yes: the ISI heading is set in the claim's size in version 2.", 14, 17)
		h.annotate(fairbalance.RoleReviewerLegal, fairbalance.CategoryEditorial, "breathe easier, every day",
			"Fine as a tagline; keep it away from any efficacy number.", 14, 10)
		h.resolve(fairbalance.RoleReviewerLegal, 2, 14, 11)
		h.decide(fairbalance.RoleReviewerMedical, fairbalance.DecisionChangesRequested, 13, 10, "Two points before this can go to UK field teams.",
			"Add the UK prescribing information reference required by the ABPI Code.",
			"Cite the TIO-BREATHE study for the 127 mL FEV1 claim on page 1.")
		h.version(1, 11, 9)
		h.markDone("Added on the last page of version 2.", 1, 11, 10)
		h.markDone("Citation added under the claim.", 1, 11, 10)
		h.submit(11, 11)
		h.claim(fairbalance.RoleReviewerMedical, 10, 9)
		h.reply(fairbalance.RoleReviewerMedical, 0, "The citation is under the claim in version 2; I will confirm it with the checklist.", 10, 10)
		h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionApproved, 9, 14, "Still fine legally.")
	},
	// Round 1 closed asking for plain language; version 2 is uploaded and
	// one of the two changes is marked done, so it cannot go back yet.
	"Cardiomax patient brochure": func(h *demoHistory) {
		h.version(0, 24, 10)
		h.submit(24, 11)
		h.decide(fairbalance.RoleReviewerMedical, fairbalance.DecisionApproved, 22, 10, "Medically accurate.")
		h.decide(fairbalance.RoleReviewerRegulatory, fairbalance.DecisionApproved, 21, 15, "Patient labelling requirements met.")
		h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionChangesRequested, 20, 11, "Patients need plainer wording and a safety sentence.",
			"Rewrite page 1 in plain language (reading age 12).",
			"Add: Do not stop taking Cardiomax without talking to your doctor.")
		h.version(1, 5, 16)
		h.markDone("Page 1 rewritten in plain language.", 1, 5, 17)
	},
	// Changes requested in round 1, made in version 2, confirmed and
	// approved in round 2: approved about three weeks ago.
	"Cardiomax HCP detail aid": func(h *demoHistory) {
		h.version(0, 40, 9)
		h.submit(40, 10)
		h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionApproved, 38, 11, "Approved from a legal standpoint.")
		h.decide(fairbalance.RoleReviewerRegulatory, fairbalance.DecisionApproved, 38, 15, "ISI complete and prominent.")
		h.decide(fairbalance.RoleReviewerMedical, fairbalance.DecisionChangesRequested, 37, 10, "The efficacy claim needs its primary source.",
			"Cite the primary publication for the 38.5% LDL-C reduction.",
			"Add the renal impairment note to the dosing page.")
		h.version(1, 33, 14)
		h.markDone("Primary publication cited on page 1.", 1, 33, 15)
		h.markDone("Renal impairment note added on page 3.", 1, 33, 15)
		h.submit(33, 16)
		h.claim(fairbalance.RoleReviewerMedical, 32, 9)
		h.confirmAll(fairbalance.RoleReviewerMedical, 32, 10)
		h.decide(fairbalance.RoleReviewerMedical, fairbalance.DecisionApproved, 32, 11, "Both changes made; approved.")
		h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionApproved, 31, 10, "Approved.")
		h.decide(fairbalance.RoleReviewerRegulatory, fairbalance.DecisionApprovedWithChanges, 30, 14, "Approved; file the final PDF with Form 2253 at first use.")
	},
	// Approved eleven months ago: its approval expires within 30 days.
	"Cardiomax social post: know your LDL": func(h *demoHistory) {
		h.version(0, 345, 9)
		h.submit(345, 10)
		h.decide(fairbalance.RoleReviewerMedical, fairbalance.DecisionApproved, 343, 10, "Accurate and balanced.")
		h.decide(fairbalance.RoleReviewerRegulatory, fairbalance.DecisionApproved, 342, 11, "ISI link present; fine for social.")
		h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionApproved, 341, 15, "Approved.")
	},
	// Approved more than a year ago; its approval ran out and the expiry
	// sweep expired it.
	"Respira patient inhaler guide": func(h *demoHistory) {
		h.version(0, 420, 9)
		h.submit(420, 10)
		h.decide(fairbalance.RoleReviewerMedical, fairbalance.DecisionApproved, 418, 10, "Steps match the instructions for use.")
		h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionApproved, 417, 11, "Approved.")
		h.decide(fairbalance.RoleReviewerRegulatory, fairbalance.DecisionApproved, 416, 16, "Approved.")
		h.expire()
	},
	// Changes in round 1, approved in round 2 on version 3, then
	// withdrawn by an administrator.
	"Living with COPD: video script": func(h *demoHistory) {
		h.version(0, 75, 9)
		h.version(1, 70, 11)
		h.submit(70, 12)
		h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionApproved, 69, 10, "Approved.")
		h.decide(fairbalance.RoleReviewerRegulatory, fairbalance.DecisionApproved, 69, 14, "Approved.")
		h.decide(fairbalance.RoleReviewerMedical, fairbalance.DecisionChangesRequested, 68, 10, "The benefit needs a substantiated claim.",
			"Add the FEV1 claim module with its reference.")
		h.version(2, 64, 9)
		h.markDone("Claim module added in scene 2.", 1, 64, 10)
		h.submit(64, 11)
		h.confirmAll(fairbalance.RoleReviewerMedical, 63, 9)
		h.decide(fairbalance.RoleReviewerMedical, fairbalance.DecisionApproved, 63, 10, "Approved.")
		h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionApproved, 62, 11, "Approved.")
		h.decide(fairbalance.RoleReviewerRegulatory, fairbalance.DecisionApproved, 62, 15, "Approved.")
		h.withdrawAsset("Replaced by the new campaign video; the FEV1 claim's reference is being updated.", 12, 10)
	},
	// The year's history behind Compliance Intelligence: approvals at the
	// first round and after two or three, change requests that point at
	// annotations (the same ones asked again and again), a rejection for
	// a comparative claim, spread over the past twelve months.
	"Cardiomax lipid clinic email": func(h *demoHistory) {
		h.version(0, 302, 9)
		h.submit(302, 10)
		h.approveAll(301, 9)
	},
	"Cardiomax pharmacist leaflet": func(h *demoHistory) {
		h.version(0, 214, 9)
		h.submit(214, 10)
		h.annotate(fairbalance.RoleReviewerLegal, fairbalance.CategoryRegulatory, "Cardiomax", "The established name must follow the brand name at first mention.", 212, 9)
		h.decide(fairbalance.RoleReviewerMedical, fairbalance.DecisionApproved, 213, 11, "Accurate.")
		h.decide(fairbalance.RoleReviewerRegulatory, fairbalance.DecisionApproved, 212, 15, "Approved.")
		h.requestOn(fairbalance.RoleReviewerLegal, 211, 10, "One naming point.", []string{"Add the established name next to the brand name."}, []int{0})
		h.version(1, 206, 9)
		h.markDone("Established name added.", 1, 206, 10)
		h.submit(206, 11)
		h.confirmAll(fairbalance.RoleReviewerLegal, 204, 9)
		h.approveAll(203, 10)
	},
	"Respira nurse training page": func(h *demoHistory) {
		h.version(0, 158, 9)
		h.submit(158, 10)
		h.approveAll(155, 9)
	},
	"Respira web page: managing COPD": func(h *demoHistory) {
		h.version(0, 131, 9)
		h.submit(131, 10)
		h.annotate(fairbalance.RoleReviewerMedical, fairbalance.CategoryClaimNeedsReference, "fewer flare-ups", "Which study shows this? Cite it.", 129, 9)
		h.annotate(fairbalance.RoleReviewerRegulatory, fairbalance.CategoryFairBalance, "Respira", "The ISI link must sit above the fold on a patient page.", 129, 11)
		h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionApproved, 129, 14, "Approved.")
		h.requestOn(fairbalance.RoleReviewerMedical, 128, 10, "Needs a source.", []string{"Cite the study for the efficacy claim."}, []int{0})
		h.requestOn(fairbalance.RoleReviewerRegulatory, 128, 15, "Fair balance on a patient page.", []string{"Move the ISI link above the fold."}, []int{1})
		h.version(1, 121, 9)
		h.markDone("Study cited; ISI link moved up.", 2, 121, 10)
		h.submit(121, 11)
		h.confirmAll(fairbalance.RoleReviewerMedical, 119, 9)
		h.confirmAll(fairbalance.RoleReviewerRegulatory, 119, 10)
		h.decide(fairbalance.RoleReviewerMedical, fairbalance.DecisionApproved, 119, 11, "Approved.")
		h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionApproved, 118, 10, "Approved.")
		h.annotate(fairbalance.RoleReviewerRegulatory, fairbalance.CategoryFairBalance, "Respira", "On phones the ISI link is below the fold again.", 117, 9)
		h.requestOn(fairbalance.RoleReviewerRegulatory, 116, 14, "Still below the fold on phones.", []string{"Move the ISI link above the fold."}, []int{2})
		h.version(2, 110, 9)
		h.markDone("ISI link pinned at the top on phones.", 1, 110, 10)
		h.submit(110, 11)
		h.confirmAll(fairbalance.RoleReviewerRegulatory, 108, 9)
		h.approveAll(107, 10)
	},
	"Cardiomax banner: once daily": func(h *demoHistory) {
		h.version(0, 247, 9)
		h.submit(247, 10)
		h.decide(fairbalance.RoleReviewerMedical, fairbalance.DecisionApproved, 246, 10, "The LDL-C figure is right.")
		h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionRejected, 245, 15,
			"The artwork sets Cardiomax beside a named competitor's pack: an implied comparison no head-to-head study supports.")
	},
	"Cardiomax congress booth panel": func(h *demoHistory) {
		h.version(0, 58, 9)
		h.submit(58, 10)
		h.approveAll(56, 9)
	},
	"Respira email: maintenance matters": func(h *demoHistory) {
		h.version(0, 186, 9)
		h.submit(186, 10)
		h.annotate(fairbalance.RoleReviewerMedical, fairbalance.CategoryClaimNeedsReference, "fewer exacerbations", "Cite TIO-BREATHE here.", 184, 9)
		h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionApproved, 184, 11, "Approved.")
		h.decide(fairbalance.RoleReviewerRegulatory, fairbalance.DecisionApproved, 184, 15, "Approved.")
		h.requestOn(fairbalance.RoleReviewerMedical, 183, 10, "Source needed.", []string{"Cite the study for the efficacy claim.", "Add the established name next to the brand name."}, []int{0, -1})
		h.version(1, 176, 9)
		h.markDone("Both done.", 2, 176, 10)
		h.submit(176, 11)
		h.confirmAll(fairbalance.RoleReviewerMedical, 174, 9)
		h.approveAll(173, 10)
	},
	// Rejected by regulatory: the copy overstates the product.
	"Respira social post: breathe like new": func(h *demoHistory) {
		h.version(0, 7, 10)
		h.submit(7, 11)
		h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionApproved, 6, 10, "No legal objection to the format.")
		h.decide(fairbalance.RoleReviewerRegulatory, fairbalance.DecisionRejected, 5, 15,
			"Overstated efficacy: \"breathe like you're 30 again\" and \"from the very first puff\" have no support in the label or the data on file; Respira is a maintenance treatment, not a rescue inhaler.")
	},
}

// demoReviews is the seeder's review service: the registry's, with a clock
// of its own to back-date the history; nil without a signature key.
func (s *seeder) demoReviews(h *demoHistory) *Reviews {
	if len(s.dc.data.cfg().SignatureKey) != ed25519.PrivateKeySize {
		return nil
	}
	return &Reviews{reg: s.dc.data, Now: func() time.Time { return h.clock }}
}

// history plays the script of a demo asset.
func (s *seeder) history(a demoAsset, products map[string]string, modules map[string]*demoModuleRef, script func(*demoHistory)) error {
	h := &demoHistory{s: s, a: a, products: products, modules: modules}
	h.rv = s.demoReviews(h)
	script(h)
	if h.err != nil {
		return h.err
	}
	var status string
	err := s.dc.data.store.Tx(s.ctx, func(tx fairbalance.Tx) error {
		rows, err := readDBRows(s.ctx, tx, "assets", condEq("id", h.assetID), 1, selCol("status", fairbalance.TypeText))
		if err == nil && len(rows) == 1 {
			status = str(rows[0], "status")
		}
		return err
	})
	if err == nil && status != string(a.Status) {
		err = fmt.Errorf("demo content: the history of %q left it %s, not %s", a.Title, status, a.Status)
	}
	return err
}

// at sets the clock to hour o'clock UTC daysAgo days before the seeding.
func (h *demoHistory) at(daysAgo, hour int) {
	day := h.s.now.Truncate(24 * time.Hour)
	h.clock = day.AddDate(0, 0, -daysAgo).Add(time.Duration(hour) * time.Hour)
}

func (h *demoHistory) fail(what string, err error) {
	if err != nil && h.err == nil {
		h.err = fmt.Errorf("demo content: %s: %s: %w", h.a.Title, what, err)
	}
}

// tx runs fn in a transaction of its own, unless an earlier step failed.
func (h *demoHistory) tx(what string, fn func(tx fairbalance.Tx) error) {
	if h.err != nil {
		return
	}
	h.fail(what, h.s.dc.data.store.Tx(h.s.ctx, fn))
}

// version makes version i of the asset (the first creates the asset) and
// dates it, and the asset when it is the first, at the clock.
func (h *demoHistory) version(i, daysAgo, hour int) {
	if h.err != nil {
		return
	}
	h.at(daysAgo, hour)
	id, versionID, err := h.s.addVersion(h.a, i, h.assetID, h.products, h.modules)
	if err != nil {
		h.fail(fmt.Sprintf("version %d", i+1), err)
		return
	}
	h.assetID, h.versions = id, i+1
	h.tx("dating its version", func(tx fairbalance.Tx) error {
		if _, _, err := tx.Update(h.s.ctx, &fairbalance.WritePlan{Table: "asset_versions", Columns: []string{"created_at", "updated_at"},
			Rows: []map[string]any{{"created_at": h.clock, "updated_at": h.clock}}, Where: condEq("id", versionID)}); err != nil {
			return err
		}
		cols := []string{"updated_at"}
		if i == 0 {
			cols = append(cols, "created_at")
		}
		_, _, err := tx.Update(h.s.ctx, &fairbalance.WritePlan{Table: "assets", Columns: cols,
			Rows: []map[string]any{{"created_at": h.clock, "updated_at": h.clock}}, Where: condEq("id", h.assetID)})
		return err
	})
}

// submit opens a round on the current version as the demo marketer.
func (h *demoHistory) submit(daysAgo, hour int) {
	h.at(daysAgo, hour)
	h.tx("submit", func(tx fairbalance.Tx) error {
		out, err := h.rv.submitForReview(h.s.ctx, tx, h.s.mkt, map[string]any{"asset_id": h.assetID})
		if err != nil {
			return err
		}
		h.steps = map[string]string{}
		for _, st := range out.(map[string]any)["steps"].([]map[string]any) {
			h.steps[str(st, "role")] = str(st, "id")
		}
		return nil
	})
}

// claim has the demo reviewer of role claim their step of the round.
func (h *demoHistory) claim(role string, daysAgo, hour int) {
	h.at(daysAgo, hour)
	h.tx("claim", func(tx fairbalance.Tx) error {
		_, err := h.rv.claimStep(h.s.ctx, tx, demoCaller(role), map[string]any{"step_id": h.steps[role]})
		return err
	})
}

// decide signs the demo reviewer of role's decision on their step (the
// demo members have no password: the seeder vouches for them).
func (h *demoHistory) decide(role string, d fairbalance.Decision, daysAgo, hour int, comment string, changes ...string) {
	if h.err != nil {
		return
	}
	h.at(daysAgo, hour)
	_, err := h.rv.DecideSigned(h.s.ctx, demoCaller(role), DecideInput{StepID: h.steps[role], Decision: d, Comment: comment, ChangeRequests: changes})
	h.fail("decide "+role, err)
}

// requestOn asks for changes as decide does, each change pointing at the
// annotation thread of the same index in threads (-1: none), so that the
// insights can tell what the requests were about.
func (h *demoHistory) requestOn(role string, daysAgo, hour int, comment string, changes []string, threads []int) {
	if h.err != nil {
		return
	}
	h.at(daysAgo, hour)
	ids := make([]string, len(changes))
	h.tx("change requests' annotations", func(tx fairbalance.Tx) error {
		for i, th := range threads {
			if th < 0 || i >= len(ids) {
				continue
			}
			id, err := h.threadRow(tx, th)
			if err != nil {
				return err
			}
			ids[i] = id
		}
		return nil
	})
	if h.err != nil {
		return
	}
	_, err := h.rv.DecideSigned(h.s.ctx, demoCaller(role), DecideInput{StepID: h.steps[role], Decision: fairbalance.DecisionChangesRequested, Comment: comment,
		ChangeRequests: changes, ChangeRequestAnnotations: ids})
	h.fail("request changes as "+role, err)
}

// approveAll has the three reviewers approve the round, a few hours apart
// from the given time.
func (h *demoHistory) approveAll(daysAgo, hour int) {
	h.decide(fairbalance.RoleReviewerLegal, fairbalance.DecisionApproved, daysAgo, hour, "Approved.")
	h.decide(fairbalance.RoleReviewerRegulatory, fairbalance.DecisionApproved, daysAgo, hour+3, "Approved; ISI complete.")
	h.decide(fairbalance.RoleReviewerMedical, fairbalance.DecisionApproved, daysAgo-1, 10, "Medically accurate.")
}

// annotate has the demo member of role comment on a quote of the
// current version.
func (h *demoHistory) annotate(role string, category fairbalance.AnnotationCategory, quote, body string, daysAgo, hour int) {
	h.at(daysAgo, hour)
	h.tx("annotate", func(tx fairbalance.Tx) error {
		rows, err := readDBRows(h.s.ctx, tx, "assets", condEq("id", h.assetID), 1, selCol("current_version_id", fairbalance.TypeText))
		if err != nil || len(rows) == 0 {
			return fmt.Errorf("no current version: %v", err)
		}
		an := &Annotations{rv: h.rv}
		out, err := an.createAnnotation(h.s.ctx, tx, demoCaller(role), map[string]any{"version_id": str(rows[0], "current_version_id"),
			"category": string(category), "body": body, "target": map[string]any{"type": "text", "exact": quote}})
		if err != nil {
			return err
		}
		h.threads = append(h.threads, out.(*AnnotationView).ThreadID)
		return nil
	})
}

// reply has the demo member of role reply in thread i (in the order made)
// on its row of the current version.
func (h *demoHistory) reply(role string, i int, body string, daysAgo, hour int) {
	h.at(daysAgo, hour)
	h.tx("reply", func(tx fairbalance.Tx) error {
		id, err := h.threadRow(tx, i)
		if err != nil {
			return err
		}
		_, err = (&Annotations{rv: h.rv}).replyAnnotation(h.s.ctx, tx, demoCaller(role), map[string]any{"annotation_id": id, "body": body})
		return err
	})
}

// resolve has the demo member of role resolve thread i.
func (h *demoHistory) resolve(role string, i int, daysAgo, hour int) {
	h.at(daysAgo, hour)
	h.tx("resolve", func(tx fairbalance.Tx) error {
		id, err := h.threadRow(tx, i)
		if err != nil {
			return err
		}
		_, err = (&Annotations{rv: h.rv}).setState(fairbalance.AnnotationResolved)(h.s.ctx, tx, demoCaller(role), map[string]any{"annotation_id": id})
		return err
	})
}

// threadRow is thread i's row on the current version, else its latest.
func (h *demoHistory) threadRow(tx fairbalance.Tx, i int) (string, error) {
	if i >= len(h.threads) {
		return "", fmt.Errorf("no thread %d", i)
	}
	rows, _, err := rowsOf[fairbalance.Annotation](h.s.ctx, tx, AnnotationsTable(), condEq("thread_id", h.threads[i]), fairbalance.OrderTerm{Column: "updated_at", Desc: true})
	if err != nil || len(rows) == 0 {
		return "", fmt.Errorf("thread %d: %v", i, err)
	}
	cur, err := readDBRows(h.s.ctx, tx, "assets", condEq("id", h.assetID), 1, selCol("current_version_id", fairbalance.TypeText))
	if err != nil || len(cur) == 0 {
		return "", fmt.Errorf("no current version: %v", err)
	}
	for _, r := range rows {
		if r.VersionID == str(cur[0], "current_version_id") {
			return r.ID, nil
		}
	}
	return rows[0].ID, nil
}

// markDone marks the first n open change requests done, as the marketer.
func (h *demoHistory) markDone(note string, n, daysAgo, hour int) {
	h.at(daysAgo, hour)
	h.tx("mark done", func(tx fairbalance.Tx) error {
		open, _, err := rowsOf[fairbalance.ChangeRequest](h.s.ctx, tx, ChangeRequestsTable(), and(condEq("asset_id", h.assetID), condEq("status", string(fairbalance.ChangeOpen))),
			fairbalance.OrderTerm{Column: "created_at"}, fairbalance.OrderTerm{Column: "id"})
		if err != nil {
			return err
		}
		for _, cr := range open[:min(n, len(open))] {
			if _, err := h.rv.markChangeDone(h.s.ctx, tx, h.s.mkt, map[string]any{"change_request_id": cr.ID, "note": note}); err != nil {
				return err
			}
		}
		return nil
	})
}

// confirmAll confirms every done change request of role, as its reviewer.
func (h *demoHistory) confirmAll(role string, daysAgo, hour int) {
	h.at(daysAgo, hour)
	h.tx("confirm", func(tx fairbalance.Tx) error {
		done, _, err := rowsOf[fairbalance.ChangeRequest](h.s.ctx, tx, ChangeRequestsTable(), and(condEq("asset_id", h.assetID), condEq("status", string(fairbalance.ChangeDone)),
			condEq("role", role)))
		if err != nil {
			return err
		}
		for _, cr := range done {
			if _, err := h.rv.confirmChange(h.s.ctx, tx, demoCaller(role), map[string]any{"change_request_id": cr.ID}); err != nil {
				return err
			}
		}
		return nil
	})
}

// withdrawAsset withdraws the approved asset as the demo administrator.
func (h *demoHistory) withdrawAsset(reason string, daysAgo, hour int) {
	h.at(daysAgo, hour)
	h.tx("withdraw", func(tx fairbalance.Tx) error {
		_, err := h.rv.withdrawAsset(h.s.ctx, tx, h.s.admin, map[string]any{"asset_id": h.assetID, "reason": reason})
		return err
	})
}

// expire expires the asset as the expiry sweep does, at the seeding time.
func (h *demoHistory) expire() {
	if h.err != nil {
		return
	}
	moved, err := h.rv.expireAsset(h.s.ctx, h.assetID, h.s.now)
	if err == nil && !moved {
		err = fmt.Errorf("its approval has not run out")
	}
	h.fail("expire", err)
}

// seedsHistory reports whether the demo seeding plays the review history
// of asset a (it has one, and the instance can sign).
func (dc *DemoContent) seedsHistory(a demoAsset) bool {
	return demoHistories[a.Title] != nil && len(dc.data.cfg().SignatureKey) == ed25519.PrivateKeySize
}
