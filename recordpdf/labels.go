package recordpdf

import (
	"strings"

	"fairbalance"
)

// The words the record prints for the product's vocabularies, as the app
// shows them.
var words = map[string]string{
	// Asset types and audiences.
	"web_page": "Web page", "detail_aid": "Detail aid", "social_post": "Social post", "video_script": "Video script",
	"hcp": "Healthcare professionals (HCP)", "patient": "Patients", "payer": "Payers",
	// Rounds and steps.
	"open": "Open", "in_review": "In review", "approved_with_changes": "Approved with changes",
	"reviewer_medical": "Medical", "reviewer_legal": "Legal", "reviewer_regulatory": "Regulatory",
	// Versions.
	"authored": "Composed in Fairbalance", "file": "Uploaded file",
	// Annotations.
	"claim_needs_reference": "Claim needs reference", "off_label": "Off-label",
}

// word is the printed form of a vocabulary value: its entry in words, else
// the value with spaces for underscores and a capital first letter.
func word[S ~string](v S) string {
	s := string(v)
	if w, ok := words[s]; ok {
		return w
	}
	s = strings.ReplaceAll(s, "_", " ")
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// statusColour is the colour of a round's or step's outcome.
func statusColour(s string) rgb {
	switch s {
	case "approved", "approved_with_changes", "confirmed", "anchored", "resolved":
		return green
	case "changes_requested", "moved", "done":
		return amber
	case "rejected", "orphaned":
		return red
	case "open", "active", "in_review":
		return blue
	}
	return gray
}

// person is a member's printed name, or says the account is gone.
func person(p fairbalance.RecordPerson) string {
	if p.Name != "" {
		return p.Name
	}
	if p.ID == "" {
		return ""
	}
	return "Former member (" + short(p.ID, 8) + ")"
}

func personPtr(p *fairbalance.RecordPerson) string {
	if p == nil {
		return ""
	}
	return person(*p)
}

// short is the first n characters of s, with an ellipsis when cut.
func short(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
