package fairbalance

import "time"

// FDA Form 2253 (Transmittal of Advertisements and Promotional Labeling
// for Drugs and Biologics for Human Use) is filed at a promotional piece's
// first use. Form2253 holds what the product and the approved asset already
// know — the applicant, the product's proprietary and established names,
// the material's type, audience, dissemination date and identifiers — so
// that the regulatory team starts from a prefilled form; ToComplete names
// the items only they can fill in.

// Form2253Format names the layout of Form2253's JSON.
const Form2253Format = "fairbalance.form_2253.v1"

// Form2253 is the Form 2253 data of an approved asset.
type Form2253 struct {
	Format      string       `json:"format"`
	GeneratedAt time.Time    `json:"generated_at"`
	GeneratedBy RecordPerson `json:"generated_by"`
	// Applicant is the organisation's name.
	Applicant string           `json:"applicant"`
	Product   Form2253Product  `json:"product"`
	Material  Form2253Material `json:"material"`
	// ToComplete are the form's items the regulatory team fills in.
	ToComplete []Form2253Item `json:"to_complete"`
}

// Form2253Product is the form's product: proprietary (brand) and
// established (generic) name, and the prescribing information the product
// points at (the package insert the form asks about).
type Form2253Product struct {
	ID              string `json:"id"`
	ProprietaryName string `json:"proprietary_name"`
	EstablishedName string `json:"established_name"`
	PIReference     string `json:"pi_reference"`
}

// DisseminationApproval is the basis of a dissemination date that is the
// approval date: Fairbalance records no first use, so the date the piece
// could first be used stands in until the team enters the real one.
const DisseminationApproval = "approval"

// The form's audiences (item 7: professional or consumer).
const (
	AudienceProfessional = "professional"
	AudienceConsumer     = "consumer"
)

// Form2253Material is the form's material row (item 7) and the approved
// version it is.
type Form2253Material struct {
	// Type is the asset's type and TypeLabel the Form 2253 material type
	// it maps to (Form2253MaterialType).
	Type      AssetType `json:"type"`
	TypeLabel string    `json:"type_label"`
	// Audience is AudienceProfessional or AudienceConsumer.
	Audience string `json:"audience"`
	// DisseminationDate is YYYY-MM-DD, on DisseminationBasis.
	DisseminationDate  string `json:"dissemination_date"`
	DisseminationBasis string `json:"dissemination_basis"`
	// MaterialID is the applicant's material ID code: the job code.
	MaterialID  string `json:"material_id"`
	Description string `json:"description"`
	AssetID     string `json:"asset_id"`
	Title       string `json:"title"`
	Channel     string `json:"channel"`
	Market      string `json:"market"`
	// The approved version: its number, SHA-256, file and pages.
	VersionID     string  `json:"version_id"`
	VersionNumber int     `json:"version_number"`
	SHA256        string  `json:"sha256"`
	FileName      *string `json:"file_name"`
	PageCount     int     `json:"page_count"`
	// ApprovedAt is when the approving round closed, ApprovedInRound its
	// number; ExpiresAt (YYYY-MM-DD) ends the approval.
	ApprovedAt      time.Time `json:"approved_at"`
	ApprovedInRound int       `json:"approved_in_round"`
	ReviewID        string    `json:"review_id"`
	ExpiresAt       *string   `json:"expires_at"`
}

// Form2253Item names one item of the form.
type Form2253Item struct {
	Item  string `json:"item"`
	Label string `json:"label"`
}

// Form2253Items are the items of the form that Fairbalance does not hold,
// by their number on the form.
var Form2253Items = []Form2253Item{
	{"1", "Date submitted"},
	{"2", "Application type and number (NDA, ANDA, BLA, PMA)"},
	{"5", "Package insert date and ID number"},
	{"6", "Manufacturer name"},
	{"8", "Applicant's return address"},
	{"9", "Responsible official's telephone, fax and e-mail"},
	{"10", "Typed name and title of the responsible official"},
	{"11", "Signature of the responsible official"},
	{"12", "Date signed"},
}

// Form2253MaterialType is the Form 2253 material type an asset type is
// filed as. The form asks for FDA's code; these are the plain names of the
// types the codes stand for, which the regulatory team turns into the
// code of the current code list.
func Form2253MaterialType(t AssetType) string {
	switch t {
	case AssetEmail:
		return "Email"
	case AssetWebPage:
		return "Website"
	case AssetDetailAid:
		return "Detail aid (sales aid)"
	case AssetSocialPost:
		return "Social media"
	case AssetBanner:
		return "Banner (online display advertisement)"
	case AssetPrint:
		return "Print advertisement"
	case AssetVideoScript:
		return "Video (broadcast or online)"
	}
	return "Other"
}

// Form2253Audience is the form's audience of an asset's audience:
// healthcare professionals and payers are professional, patients consumer.
func Form2253Audience(a Audience) string {
	if a == AudiencePatient {
		return AudienceConsumer
	}
	return AudienceProfessional
}
