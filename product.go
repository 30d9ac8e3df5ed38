package fairbalance

import "time"

// Product is a therapeutic product an organisation promotes (table
// products): its names, indications and safety information.
type Product struct {
	ID        string `json:"id"`
	OrgID     string `json:"org_id"`
	BrandName string `json:"brand_name"`
	// EstablishedName is the generic name.
	EstablishedName string `json:"established_name"`
	Indications     string `json:"indications"`
	// ISIText is the important safety information.
	ISIText string `json:"isi_text"`
	// PIReference points at the prescribing information.
	PIReference string `json:"pi_reference"`
	// LaunchDate is YYYY-MM-DD.
	LaunchDate *string  `json:"launch_date"`
	Markets    []string `json:"markets"`
	// Active products are offered for new content.
	Active    bool      `json:"active"`
	CreatedBy string    `json:"created_by"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}
