package service

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/pgrest"
	"fairbalance/samplepdf"
)

// DemoContent seeds and removes the content of the demo organisation: two
// products with their safety information, references with real PDF files,
// claims quoting those files, modules and eleven assets across types and
// states, some composed (with module marks), some multi-page PDFs, with
// the review history behind their states (demo_reviews.go). It goes
// through the same paths as users do (storage uploads, the data API and
// the content functions), so the demo shows what the product really does.
type DemoContent struct {
	data    *Registry
	storage *Storage
	mu      sync.Mutex
}

// NewDemoContent returns the demo content seeder over the registry (its
// content tables and functions, create_asset …) and storage (the product
// buckets).
func NewDemoContent(data *Registry, storage *Storage) *DemoContent {
	return &DemoContent{data: data, storage: storage}
}

// DemoAssets is the number of assets the demo content holds.
const DemoAssets = 18

// demoContentTables are the demo organisation's content tables, in the
// order their rows can be deleted.
var demoContentTables = []string{"notifications", "change_requests", "signatures", "review_steps", "reviews", "version_modules", "claim_references", "modules", "claims", "asset_versions", "assets", "content_references", "products"}

// demoBuckets are the product buckets the demo files live in.
var demoBuckets = []string{"asset-files", "reference-files"}

// Assets counts the demo organisation's assets.
func (dc *DemoContent) Assets(ctx context.Context) (int, error) {
	rows, err := readDBRows(ctx, dc.data.store.View(), "assets", condEq("org_id", fairbalance.DemoOrgID), 0, selCol("id", fairbalance.TypeText))
	return len(rows), err
}

// Seed creates the demo content when it is absent; content left half-made
// by an interrupted seed is removed and made again. The demo organisation
// and its members must exist.
func (dc *DemoContent) Seed(ctx context.Context) error {
	dc.mu.Lock()
	defer dc.mu.Unlock()
	v := dc.data.store.View()
	assets, err := dc.Assets(ctx)
	if err != nil {
		return err
	}
	products, err := readDBRows(ctx, v, "products", condEq("org_id", fairbalance.DemoOrgID), 0, selCol("id", fairbalance.TypeText))
	if err != nil {
		return err
	}
	if assets >= DemoAssets && len(products) > 0 {
		return nil
	}
	if err := dc.remove(ctx); err != nil {
		return err
	}
	return dc.seed(ctx)
}

// Remove deletes the demo content and its files (rows and blobs).
func (dc *DemoContent) Remove(ctx context.Context) error {
	dc.mu.Lock()
	defer dc.mu.Unlock()
	return dc.remove(ctx)
}

func (dc *DemoContent) remove(ctx context.Context) error {
	err := dc.data.store.Tx(ctx, func(tx fairbalance.Tx) error {
		for _, t := range demoContentTables {
			if _, _, err := tx.Delete(ctx, &fairbalance.WritePlan{Table: t, Where: condEq("org_id", fairbalance.DemoOrgID)}); err != nil {
				return fmt.Errorf("demo content: delete %s: %w", t, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	svc := fairbalance.Caller{Role: "service_role"}
	for _, b := range demoBuckets {
		for {
			entries, err := dc.storage.List(ctx, svc, b, ListInput{Prefix: fairbalance.DemoOrgID + "/", Limit: 1000})
			if err != nil {
				return err
			}
			var names []string
			for _, e := range entries {
				if e.Object != nil {
					names = append(names, e.Object.Name)
				}
			}
			if len(names) == 0 {
				break
			}
			if _, err := dc.storage.Remove(ctx, svc, b, names); err != nil {
				return err
			}
		}
	}
	return nil
}

// demoCaller acts as a demo member with full rights (demo sessions are
// read-only; the seeder is the server itself).
func demoCaller(role string) fairbalance.Caller {
	return fairbalance.Caller{Role: "authenticated", UserID: fairbalance.DemoUserID(role), OrgID: fairbalance.DemoOrgID, Member: role}
}

// seeder carries the ids made so far.
type seeder struct {
	dc         *DemoContent
	ctx        context.Context
	admin, mkt fairbalance.Caller
	now        time.Time
}

func (dc *DemoContent) seed(ctx context.Context) error {
	s := &seeder{dc: dc, ctx: ctx, admin: demoCaller(fairbalance.RoleAdmin), mkt: demoCaller(fairbalance.RoleMarketer), now: time.Now().UTC()}

	products := map[string]string{}
	for _, p := range demoProducts {
		row, err := s.insert(s.admin, "products", p.row())
		if err != nil {
			return err
		}
		products[p.Brand] = str(row, "id")
	}

	refs := make([]string, len(demoReferences))
	for i, r := range demoReferences {
		row, err := s.insert(s.mkt, "references", map[string]any{"title": r.Title, "citation": r.Citation, "kind": r.Kind})
		if err != nil {
			return err
		}
		refs[i] = str(row, "id")
		path, err := s.upload("reference-files", r.File, r.Title, r.Pages)
		if err != nil {
			return err
		}
		if _, err := s.call(s.mkt, "attach_reference_file", map[string]any{"reference_id": refs[i], "file_path": path, "file_name": r.File}); err != nil {
			return err
		}
	}

	claims := make([]string, len(demoClaims))
	for i, c := range demoClaims {
		variants := c.Variants
		if variants == nil {
			variants = []string{}
		}
		row, err := s.insert(s.mkt, "claims", map[string]any{"text": c.Text, "variants": variants, "product_id": products[c.Brand]})
		if err != nil {
			return err
		}
		claims[i] = str(row, "id")
		// The marketer substantiates the draft, then a reviewer decides it
		// (a decided claim's passages are no longer its author's to change).
		for _, q := range c.Quotes {
			if _, err := s.insert(s.mkt, "claim_references", map[string]any{"claim_id": claims[i], "reference_id": refs[q.Ref], "page": q.Page, "passage": q.Passage}); err != nil {
				return fmt.Errorf("demo content: claim %d quoting reference %d page %d: %w", i+1, q.Ref+1, q.Page, err)
			}
		}
		if err := s.decide("claims", claims[i], demoClaimPath[c.Status]); err != nil {
			return err
		}
	}

	modules := map[string]*demoModuleRef{}
	for _, m := range demoModules {
		row := map[string]any{"kind": m.Kind, "title": m.Title, "body": m.Body}
		if m.Brand != "" {
			row["product_id"] = products[m.Brand]
		}
		if m.Claim >= 0 {
			row["claim_id"] = claims[m.Claim]
		}
		got, err := s.insert(s.mkt, "modules", row)
		if err != nil {
			return err
		}
		if m.Status != string(fairbalance.ModuleDraft) {
			if err := s.decide("modules", str(got, "id"), []string{m.Status}); err != nil {
				return err
			}
		}
		modules[m.Key] = &demoModuleRef{id: str(got, "id"), kind: m.Kind, title: m.Title, body: m.Body}
	}

	for _, a := range demoAssets {
		if err := s.asset(a, products, modules); err != nil {
			return fmt.Errorf("demo content: asset %q: %w", a.Title, err)
		}
	}
	return nil
}

type demoModuleRef struct{ id, kind, title, body string }

// asset creates one asset through create_asset and add_asset_version and
// puts it in its state: through its review history (demo_reviews.go) when
// it has one and the instance can sign, else directly.
func (s *seeder) asset(a demoAsset, products map[string]string, modules map[string]*demoModuleRef) error {
	if s.dc.seedsHistory(a) {
		return s.history(a, products, modules, demoHistories[a.Title])
	}
	var assetID string
	var versionIDs []string
	for i := range a.Versions {
		id, versionID, err := s.addVersion(a, i, assetID, products, modules)
		if err != nil {
			return err
		}
		assetID, versionIDs = id, append(versionIDs, versionID)
	}
	if a.Status == fairbalance.AssetArchived {
		_, err := s.call(s.mkt, "archive_asset", map[string]any{"asset_id": assetID})
		return err
	}
	if a.Status == fairbalance.AssetDraft && a.ExpiresInDays == 0 {
		return nil
	}
	current := versionIDs[len(versionIDs)-1]
	return s.dc.data.store.Tx(s.ctx, func(tx fairbalance.Tx) error {
		values := map[string]any{"status": string(a.Status), "updated_at": s.now}
		if a.ExpiresInDays != 0 {
			values["expires_at"] = s.now.AddDate(0, 0, a.ExpiresInDays).Format("2006-01-02")
		}
		if a.Status == fairbalance.AssetApproved || a.Status == fairbalance.AssetExpired {
			values["approved_version_id"] = current
		}
		if _, err := updateRow(s.ctx, tx, AssetsTable(), assetID, values, nil); err != nil {
			return err
		}
		if a.Status == fairbalance.AssetDraft {
			return nil
		}
		// What went to review is frozen (versions are immutable once submitted).
		_, _, err := tx.Update(s.ctx, &fairbalance.WritePlan{Table: "asset_versions", Columns: []string{"submitted_at"},
			Rows: []map[string]any{{"submitted_at": s.now}}, Where: condEq("id", current)})
		return err
	})
}

// addVersion makes version i of a: the first through create_asset, the
// others through add_asset_version on assetID. It returns the asset's id
// and the version's.
func (s *seeder) addVersion(a demoAsset, i int, assetID string, products map[string]string, modules map[string]*demoModuleRef) (string, string, error) {
	v := a.Versions[i]
	args := map[string]any{}
	if v.PDF != nil {
		path, err := s.upload("asset-files", v.FileName, a.Title, v.PDF)
		if err != nil {
			return "", "", err
		}
		args["file_path"], args["file_name"] = path, v.FileName
	} else {
		args["content_html"] = v.html(modules)
	}
	if v.Note != "" {
		args["change_note"] = v.Note
	}
	if i == 0 {
		args["title"], args["type"], args["audience"], args["channel"], args["market"] = a.Title, a.Type, a.Audience, a.Channel, a.Market
		if a.Brand != "" {
			args["product_id"] = products[a.Brand]
		}
		row, err := s.call(s.mkt, "create_asset", args)
		if err != nil {
			return "", "", err
		}
		return str(row, "id"), str(row, "current_version_id"), nil
	}
	args["asset_id"] = assetID
	row, err := s.call(s.mkt, "add_asset_version", args)
	if err != nil {
		return "", "", err
	}
	return assetID, str(row, "id"), nil
}

// upload stores a generated PDF in a product bucket as an upload through a
// prepare_upload URL does, under a server-chosen name.
func (s *seeder) upload(bucket, fileName, title string, pages []samplepdf.Page) (string, error) {
	pdf, err := samplepdf.Generate(title, pages)
	if err != nil {
		return "", fmt.Errorf("demo content: %s: %w", fileName, err)
	}
	path := fairbalance.DemoOrgID + "/" + auth.NewUUID() + ".pdf"
	token, err := s.dc.storage.SignServerUpload(bucket, path, "service_role", "", int64(len(pdf)))
	if err != nil {
		return "", err
	}
	if _, err := s.dc.storage.UploadSigned(s.ctx, token, UploadInput{Bucket: bucket, Name: path, Body: bytes.NewReader(pdf),
		Metadata: json.RawMessage(`{"demo":true}`)}); err != nil {
		return "", fmt.Errorf("demo content: upload %s: %w", fileName, err)
	}
	return path, nil
}

var demoInsertRequest = func() *pgrest.Request {
	r, err := pgrest.ParseRequest(url.Values{"select": {"*"}}, map[string][]string{"Prefer": {"return=representation"}})
	if err != nil {
		panic(err)
	}
	return r
}()

func (s *seeder) insert(c fairbalance.Caller, table string, row map[string]any) (map[string]any, error) {
	body, err := json.Marshal(row)
	if err != nil {
		return nil, err
	}
	res, err := s.dc.data.Insert(s.ctx, c, table, demoInsertRequest, body)
	if err != nil {
		return nil, fmt.Errorf("demo content: insert %s: %w", table, err)
	}
	return oneRow(res.Rows)
}

// demoClaimPath is the way of a draft claim to each status of the demo
// (ClaimTransitions: an expired claim was approved first).
var demoClaimPath = map[string][]string{
	string(fairbalance.ClaimDraft):     nil,
	string(fairbalance.ClaimApproved):  {string(fairbalance.ClaimApproved)},
	string(fairbalance.ClaimExpired):   {string(fairbalance.ClaimApproved), string(fairbalance.ClaimExpired)},
	string(fairbalance.ClaimWithdrawn): {string(fairbalance.ClaimWithdrawn)},
}

// decide moves the claim or module id of table through statuses as the
// demo's regulatory reviewer: the marketer authors drafts, a reviewer
// decides their status (Caller.DecidesContentStatus).
func (s *seeder) decide(table, id string, statuses []string) error {
	reviewer := demoCaller(fairbalance.RoleReviewerRegulatory)
	for _, st := range statuses {
		r, err := pgrest.ParseRequest(url.Values{"id": {"eq." + id}}, nil)
		if err != nil {
			return err
		}
		body, _ := json.Marshal(map[string]any{"status": st})
		if _, err := s.dc.data.Update(s.ctx, reviewer, table, r, body); err != nil {
			return fmt.Errorf("demo content: %s %s to %s: %w", table, id, st, err)
		}
	}
	return nil
}

func (s *seeder) call(c fairbalance.Caller, fn string, args map[string]any) (map[string]any, error) {
	out, err := s.dc.data.Call(s.ctx, c, fn, args, false)
	if err != nil {
		return nil, fmt.Errorf("demo content: %s: %w", fn, err)
	}
	var row map[string]any
	if err := json.Unmarshal(out, &row); err != nil {
		return nil, err
	}
	return row, nil
}

// The demo content itself. Names, studies and figures are fictional.

type demoProduct struct {
	Brand, Established, Indications, ISI, PI, Launch string
	Markets                                          []string
}

func (p demoProduct) row() map[string]any {
	return map[string]any{"brand_name": p.Brand, "established_name": p.Established, "indications": p.Indications, "isi_text": p.ISI,
		"pi_reference": p.PI, "launch_date": p.Launch, "markets": p.Markets}
}

const (
	cardiomaxISI = "Cardiomax is contraindicated in patients with active liver disease, unexplained persistent elevations of hepatic transaminases, and in women who are pregnant or breastfeeding. Myopathy and rhabdomyolysis have been reported; advise patients to promptly report unexplained muscle pain, tenderness or weakness, and discontinue Cardiomax if myopathy is diagnosed or suspected. Perform liver enzyme tests before initiating therapy and as clinically indicated. The most common adverse reactions (incidence of 2% or more and greater than placebo) were headache, myalgia, nausea and nasopharyngitis."
	respiraISI   = "Respira is not indicated for the relief of acute bronchospasm or for the treatment of asthma. Paradoxical bronchospasm may occur; if it does, stop Respira at once and institute alternative therapy. Use with caution in patients with narrow-angle glaucoma or urinary retention and advise patients to report eye pain, blurred vision or difficulty passing urine. The most common adverse reactions (incidence of 3% or more) were dry mouth, upper respiratory tract infection, cough and sinusitis."
)

var demoProducts = []demoProduct{
	{Brand: "Cardiomax", Established: "velostatin tablets 10 mg, 20 mg, 40 mg",
		Indications: "As an adjunct to diet to reduce low-density lipoprotein cholesterol (LDL-C) in adults with primary hyperlipidemia, and to reduce the risk of myocardial infarction and stroke in adults with established cardiovascular disease.",
		ISI:         cardiomaxISI, PI: "Cardiomax (velostatin) tablets, full Prescribing Information, Demo Pharma Inc., revised 03/2025.",
		Launch: "2024-03-15", Markets: []string{"US", "EU"}},
	{Brand: "Respira", Established: "tiotrazole inhalation powder 18 mcg",
		Indications: "Long-term, once-daily maintenance treatment of airflow obstruction in patients with chronic obstructive pulmonary disease (COPD), and reduction of COPD exacerbations.",
		ISI:         respiraISI, PI: "Respira (tiotrazole) inhalation powder, full Prescribing Information, Demo Pharma Inc., revised 01/2025.",
		Launch: "2025-02-01", Markets: []string{"US", "UK", "DE"}},
}

type demoReference struct {
	Title, Citation, Kind, File string
	Pages                       []samplepdf.Page
}

var demoReferences = []demoReference{
	{Title: "Cardiomax (velostatin) tablets Prescribing Information", Kind: "prescribing_information", File: "cardiomax-prescribing-information.pdf",
		Citation: "Cardiomax (velostatin) tablets. Prescribing Information. Demo Pharma Inc.; 2025.",
		Pages: []samplepdf.Page{
			{Heading: "1 Indications and Usage", Paragraphs: []string{
				"Cardiomax is an HMG-CoA reductase inhibitor indicated as an adjunct to diet to reduce low-density lipoprotein cholesterol (LDL-C) in adults with primary hyperlipidemia.",
				"Cardiomax is indicated to reduce the risk of myocardial infarction and stroke in adults with established cardiovascular disease.",
				"Limitations of use: Cardiomax has not been studied in Fredrickson Type I, III and V dyslipidemias."}},
			{Heading: "2 Dosage and Administration", Font: "Times", Paragraphs: []string{
				"The recommended starting dose of Cardiomax is 20 mg once daily, taken at any time of the day, with or without food.",
				"The dosage range is 10 mg to 40 mg once daily. Assess LDL-C within 4 to 12 weeks after initiating Cardiomax and adjust the dosage if necessary.",
				"In patients with severe renal impairment (CLcr less than 30 mL/min), start with 10 mg once daily and do not exceed 20 mg once daily."}},
			{Heading: "5 Warnings and Precautions", Paragraphs: []string{
				"Myopathy and rhabdomyolysis: Cardiomax may cause myopathy and rhabdomyolysis. Risk factors include age 65 years or greater, uncontrolled hypothyroidism and renal impairment.",
				"Hepatic dysfunction: increases in serum transaminases have been reported. Consider liver enzyme testing before initiating therapy and when clinically indicated."}},
			{Heading: "6 Adverse Reactions", Font: "Times", Paragraphs: []string{
				"In placebo-controlled trials, 2,114 patients received Cardiomax for a median of 52 weeks.",
				"The most common adverse reactions (incidence of 2% or more and greater than placebo) were headache (4.1%), myalgia (3.2%), nausea (2.6%) and nasopharyngitis (2.2%).",
				"Adverse reactions led to discontinuation in 3.4% of patients treated with Cardiomax and 2.9% of patients who received placebo."}},
		}},
	{Title: "VELO-LIPID: velostatin in adults with primary hyperlipidemia", Kind: "clinical_study", File: "velo-lipid-study.pdf",
		Citation: "Harper AL, Nguyen T, Okafor C, et al. Velostatin in adults with primary hyperlipidemia (VELO-LIPID). J Clin Lipidol Demo. 2024;18(2):211-223.",
		Pages: []samplepdf.Page{
			{Heading: "Abstract", Font: "Times", Paragraphs: []string{
				"Background: Velostatin is a once-daily HMG-CoA reductase inhibitor. We assessed its efficacy and safety in adults with primary hyperlipidemia.",
				"Methods: In this 12-week, randomized, double-blind, placebo-controlled trial, 1,204 adults were assigned to velostatin 10 mg, 20 mg or 40 mg, or placebo.",
				"Results: At week 12, velostatin 20 mg reduced LDL-C by 38.5% from baseline versus 1.2% with placebo (p < 0.001)."}},
			{Heading: "Results", Font: "Times", Paragraphs: []string{
				"LDL-C reductions were dose dependent: 31.9% with 10 mg, 38.5% with 20 mg and 46.2% with 40 mg.",
				"At week 12, 72% of patients treated with velostatin 20 mg reached their LDL-C goal, compared with 9% of patients who received placebo.",
				"Reductions were consistent across subgroups defined by age, sex, baseline LDL-C and diabetes status."}},
			{Heading: "Safety", Font: "Times", Style: "I", Paragraphs: []string{
				"Velostatin was generally well tolerated. Adverse events occurred in 41% of velostatin-treated patients and 39% of placebo-treated patients.",
				"No cases of rhabdomyolysis were observed. Elevations of ALT greater than three times the upper limit of normal occurred in 0.4% of patients treated with velostatin."}},
		}},
	{Title: "Respira (tiotrazole) inhalation powder Prescribing Information", Kind: "prescribing_information", File: "respira-prescribing-information.pdf",
		Citation: "Respira (tiotrazole) inhalation powder. Prescribing Information. Demo Pharma Inc.; 2025.",
		Pages: []samplepdf.Page{
			{Heading: "1 Indications and Usage", Paragraphs: []string{
				"Respira is an anticholinergic indicated for the long-term, once-daily, maintenance treatment of airflow obstruction in patients with chronic obstructive pulmonary disease (COPD).",
				"Respira is indicated to reduce exacerbations of COPD.",
				"Respira is not indicated for the relief of acute bronchospasm."}},
			{Heading: "2 Dosage and Administration", Font: "Courier", Paragraphs: []string{
				"Inhale the contents of one Respira capsule (18 mcg) once daily with the Respira inhaler.",
				"Do not swallow Respira capsules. Use only with the Respira inhaler."}},
			{Heading: "6 Adverse Reactions", Paragraphs: []string{
				"The most common adverse reactions (incidence of 3% or more) were dry mouth (5.1%), upper respiratory tract infection (4.4%), cough (3.6%) and sinusitis (3.1%).",
				"Paradoxical bronchospasm was reported in fewer than 0.1% of patients."}},
		}},
	{Title: "TIO-BREATHE 52-week study report (data on file)", Kind: "data_on_file", File: "tio-breathe-data-on-file.pdf",
		Citation: "Demo Pharma Inc. Data on file. TIO-BREATHE 52-week clinical study report; 2025.",
		Pages: []samplepdf.Page{
			{Heading: "Efficacy", Font: "Helvetica", Paragraphs: []string{
				"In TIO-BREATHE, 1,830 patients with moderate to very severe COPD were randomized to Respira 18 mcg or placebo for 52 weeks.",
				"Respira improved trough FEV1 by 127 mL versus placebo at week 52 (95% CI 104 to 150 mL; p < 0.001).",
				"Respira reduced the annual rate of moderate or severe COPD exacerbations by 22% compared with placebo."}},
			{Heading: "Quality of life", Font: "Times", Paragraphs: []string{
				"At week 52, 49% of patients treated with Respira achieved a clinically meaningful improvement in SGRQ total score, versus 38% with placebo.",
				"Rescue medication use decreased by 0.8 puffs per day with Respira compared with placebo."}},
		}},
}

type demoQuote struct {
	Ref, Page int
	Passage   string
}

type demoClaim struct {
	Brand, Text, Status string
	Variants            []string
	Quotes              []demoQuote
}

var demoClaims = []demoClaim{
	{Brand: "Cardiomax", Status: "approved", Text: "Cardiomax 20 mg lowered LDL-C by 38.5% at 12 weeks.",
		Variants: []string{"Cardiomax lowered LDL-C by 38.5% in 12 weeks", "38.5% LDL-C reduction at week 12 with Cardiomax 20 mg"},
		Quotes: []demoQuote{{Ref: 1, Page: 1, Passage: "At week 12, velostatin 20 mg reduced LDL-C by 38.5% from baseline versus 1.2% with placebo (p < 0.001)."},
			{Ref: 1, Page: 2, Passage: "38.5% with 20 mg"}}},
	{Brand: "Cardiomax", Status: "approved", Text: "72% of patients on Cardiomax 20 mg reached their LDL-C goal at week 12.",
		Quotes: []demoQuote{{Ref: 1, Page: 2, Passage: "At week 12, 72% of patients treated with velostatin 20 mg reached their LDL-C goal"}}},
	{Brand: "Cardiomax", Status: "draft", Text: "One tablet, once a day, with or without food.",
		Variants: []string{"Once-daily dosing, with or without food"},
		Quotes:   []demoQuote{{Ref: 0, Page: 2, Passage: "The recommended starting dose of Cardiomax is 20 mg once daily, taken at any time of the day, with or without food."}}},
	{Brand: "Cardiomax", Status: "withdrawn", Text: "No cases of rhabdomyolysis with Cardiomax.",
		Quotes: []demoQuote{{Ref: 1, Page: 3, Passage: "No cases of rhabdomyolysis were observed."}}},
	{Brand: "Respira", Status: "approved", Text: "Respira improved lung function by 127 mL versus placebo at one year.",
		Variants: []string{"+127 mL trough FEV1 at week 52"},
		Quotes:   []demoQuote{{Ref: 3, Page: 1, Passage: "Respira improved trough FEV1 by 127 mL versus placebo at week 52"}}},
	{Brand: "Respira", Status: "approved", Text: "Respira reduced COPD flare-ups by 22%.",
		Quotes: []demoQuote{{Ref: 3, Page: 1, Passage: "reduced the annual rate of moderate or severe COPD exacerbations by 22% compared with placebo"},
			{Ref: 2, Page: 1, Passage: "Respira is indicated to reduce exacerbations of COPD."}}},
	{Brand: "Respira", Status: "draft", Text: "Half of patients on Respira felt a real difference in their daily life.",
		Quotes: []demoQuote{{Ref: 3, Page: 2, Passage: "49% of patients treated with Respira achieved a clinically meaningful improvement in SGRQ total score"}}},
}

type demoModule struct {
	Key, Kind, Title, Body, Status, Brand string
	Claim                                 int // index in demoClaims, -1 for none
}

var demoModules = []demoModule{
	{Key: "isi-cardiomax", Kind: "isi", Title: "Cardiomax Important Safety Information", Body: cardiomaxISI, Status: "approved", Brand: "Cardiomax", Claim: -1},
	{Key: "isi-respira", Kind: "isi", Title: "Respira Important Safety Information", Body: respiraISI, Status: "approved", Brand: "Respira", Claim: -1},
	{Key: "disclaimer-hcp", Kind: "disclaimer", Title: "US healthcare professionals disclaimer", Status: "approved", Claim: -1,
		Body: "This information is intended for US healthcare professionals only. Please see the full Prescribing Information."},
	{Key: "claim-ldl", Kind: "claim", Title: "LDL-C reduction 38.5%", Body: "Cardiomax 20 mg lowered LDL-C by 38.5% at 12 weeks.", Status: "approved", Brand: "Cardiomax", Claim: 0},
	{Key: "claim-fev1", Kind: "claim", Title: "FEV1 +127 mL at week 52", Body: "Respira improved lung function by 127 mL versus placebo at one year.", Status: "approved", Brand: "Respira", Claim: 4},
	{Key: "copy-ask", Kind: "copy", Title: "Ask your doctor (patient close)", Status: "draft", Claim: -1,
		Body: "Ask your doctor if it is right for you. You are encouraged to report side effects of prescription drugs to Demo Pharma."},
}

// demoVersion is one version: composed paragraphs with modules, or a PDF.
type demoVersion struct {
	Paragraphs []string // "@key" inserts the module with that key
	PDF        []samplepdf.Page
	FileName   string
	Note       string
}

// html renders the composed version as the editor would: paragraphs, and
// module text marked with its module.
func (v demoVersion) html(modules map[string]*demoModuleRef) string {
	var b strings.Builder
	for _, p := range v.Paragraphs {
		if key, ok := strings.CutPrefix(p, "@"); ok {
			m := modules[key]
			fmt.Fprintf(&b, `<p><span data-module-id="%s" data-module-kind="%s" data-module-title="%s">%s</span></p>`, m.id, m.kind, htmlEscape(m.title), htmlEscape(m.body))
			continue
		}
		b.WriteString("<p>" + htmlEscape(p) + "</p>")
	}
	return b.String()
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

type demoAsset struct {
	Title, Type, Audience, Channel, Market, Brand string
	// Status is where the asset is left: by its review history
	// (demoHistories) when the instance can sign, else set directly, with
	// ExpiresInDays for an approval's expiry.
	Status        fairbalance.AssetStatus
	ExpiresInDays int
	Versions      []demoVersion
}

func detailAidPages(brand, headline, claim, isi string, revised bool) []samplepdf.Page {
	pages := []samplepdf.Page{
		{Heading: headline, Font: "Helvetica", Paragraphs: []string{claim, "See the study design and safety information on the following pages."}},
		{Heading: "Study design", Font: "Times", Paragraphs: []string{"Randomized, double-blind, placebo-controlled trials in adults. Primary endpoint at the end of treatment.", "Results were consistent across prespecified subgroups."}},
		{Heading: "Dosing", Font: "Courier", Paragraphs: []string{"Once daily. No titration needed for most patients."}},
		{Heading: "Important Safety Information", Font: "Helvetica", Style: "B", Paragraphs: []string{isi}},
	}
	if revised {
		pages[0].Paragraphs = append(pages[0].Paragraphs, "Revised after medical review: the claim now cites the primary publication.")
		pages[2].Paragraphs = append(pages[2].Paragraphs, "Renal impairment: see the full Prescribing Information for "+brand+".")
	}
	return pages
}

var demoAssets = []demoAsset{
	{Title: "Cardiomax launch email for cardiologists", Type: "email", Audience: "hcp", Channel: "Email", Market: "US", Brand: "Cardiomax", Status: "in_review",
		Versions: []demoVersion{
			{Paragraphs: []string{"Dear Doctor,", "Cardiomax (velostatin) is now available for your adult patients with primary hyperlipidemia.", "@isi-cardiomax"}},
			{Note: "Added the LDL-C claim module and the HCP disclaimer.", Paragraphs: []string{"Dear Doctor,", "Cardiomax (velostatin) is now available for your adult patients with primary hyperlipidemia.", "@claim-ldl", "@disclaimer-hcp", "@isi-cardiomax"}},
			{Note: "Shortened the opening after the brand team's comments.", Paragraphs: []string{"Dear Doctor,", "Meet Cardiomax: once-daily LDL-C lowering for adults with primary hyperlipidemia.", "@claim-ldl", "@disclaimer-hcp", "@isi-cardiomax"}},
		}},
	{Title: "Cardiomax HCP detail aid", Type: "detail_aid", Audience: "hcp", Channel: "Field force", Market: "US", Brand: "Cardiomax", Status: "approved", ExpiresInDays: 365,
		Versions: []demoVersion{
			{FileName: "cardiomax-detail-aid-v1.pdf", PDF: detailAidPages("Cardiomax", "Cardiomax: powerful LDL-C lowering", "Cardiomax 20 mg lowered LDL-C by 38.5% at 12 weeks.", cardiomaxISI, false)},
			{FileName: "cardiomax-detail-aid-v2.pdf", Note: "Medical review comments addressed; dosing page updated.", PDF: detailAidPages("Cardiomax", "Cardiomax: powerful LDL-C lowering", "Cardiomax 20 mg lowered LDL-C by 38.5% at 12 weeks.", cardiomaxISI, true)},
		}},
	{Title: "Cardiomax patient brochure", Type: "print", Audience: "patient", Channel: "Print", Market: "US", Brand: "Cardiomax", Status: "changes_requested",
		Versions: []demoVersion{
			{FileName: "cardiomax-patient-brochure.pdf", PDF: []samplepdf.Page{
				{Heading: "What is Cardiomax?", Paragraphs: []string{"Cardiomax is a prescription medicine that lowers bad cholesterol (LDL-C) in adults, together with diet."}},
				{Heading: "How do I take Cardiomax?", Font: "Times", Paragraphs: []string{"Take one tablet once a day, at any time, with or without food."}},
				{Heading: "Important Safety Information", Style: "B", Paragraphs: []string{cardiomaxISI}},
			}},
			{FileName: "cardiomax-patient-brochure-v2.pdf", Note: "Plain-language rewrite of page 1.", PDF: []samplepdf.Page{
				{Heading: "What is Cardiomax?", Paragraphs: []string{"Cardiomax is a prescription medicine. Along with diet, it helps lower LDL cholesterol, the bad cholesterol, in adults."}},
				{Heading: "How do I take Cardiomax?", Font: "Times", Paragraphs: []string{"Take one tablet once a day, at any time, with or without food. Do not stop taking it without talking to your doctor."}},
				{Heading: "Important Safety Information", Style: "B", Paragraphs: []string{cardiomaxISI}},
			}},
		}},
	{Title: "Cardiomax website hero banner", Type: "banner", Audience: "hcp", Channel: "Web", Market: "EU", Brand: "Cardiomax", Status: "draft",
		Versions: []demoVersion{{Paragraphs: []string{"Cardiomax: LDL-C lowering you can count on.", "@claim-ldl", "@isi-cardiomax"}}}},
	{Title: "Cardiomax social post: know your LDL", Type: "social_post", Audience: "patient", Channel: "Social", Market: "US", Brand: "Cardiomax", Status: "approved", ExpiresInDays: 25,
		Versions: []demoVersion{{Paragraphs: []string{"Do you know your LDL number? High cholesterol has no symptoms.", "@copy-ask", "@isi-cardiomax"}}}},
	{Title: "Respira COPD detail aid", Type: "detail_aid", Audience: "hcp", Channel: "Field force", Market: "UK", Brand: "Respira", Status: "in_review",
		Versions: []demoVersion{
			{FileName: "respira-detail-aid-v1.pdf", PDF: detailAidPages("Respira", "Respira: breathe easier, every day", "Respira improved lung function by 127 mL versus placebo at one year.", respiraISI, false)},
			{FileName: "respira-detail-aid-v2.pdf", Note: "UK adaptation: prescribing information reference added.", PDF: detailAidPages("Respira", "Respira: breathe easier, every day", "Respira improved lung function by 127 mL versus placebo at one year.", respiraISI, true)},
		}},
	{Title: "Respira patient inhaler guide", Type: "print", Audience: "patient", Channel: "Print", Market: "US", Brand: "Respira", Status: "expired", ExpiresInDays: -30,
		Versions: []demoVersion{{FileName: "respira-inhaler-guide.pdf", PDF: []samplepdf.Page{
			{Heading: "Using your Respira inhaler", Paragraphs: []string{"1. Open the cap and the mouthpiece. 2. Place one capsule in the chamber. 3. Close the mouthpiece until you hear a click.", "4. Press the piercing button once and release. 5. Breathe out fully, then breathe in slowly and deeply through the mouthpiece."}},
			{Heading: "Important Safety Information", Style: "B", Paragraphs: []string{respiraISI}},
		}}}},
	{Title: "Respira payer value dossier", Type: "other", Audience: "payer", Channel: "Market access", Market: "DE", Brand: "Respira", Status: "draft",
		Versions: []demoVersion{{FileName: "respira-value-dossier.pdf", PDF: []samplepdf.Page{
			{Heading: "Burden of COPD", Font: "Times", Paragraphs: []string{"COPD exacerbations drive most of the cost of care, through emergency visits and hospital stays."}},
			{Heading: "Clinical value", Font: "Times", Paragraphs: []string{"Respira reduced the annual rate of moderate or severe exacerbations by 22% compared with placebo in TIO-BREATHE."}},
			{Heading: "Budget impact", Font: "Courier", Paragraphs: []string{"Fewer exacerbations offset a large part of the acquisition cost within the first year."}},
		}}}},
	{Title: "Respira congress invitation email", Type: "email", Audience: "hcp", Channel: "Email", Market: "EU", Brand: "Respira", Status: "archived",
		Versions: []demoVersion{{Paragraphs: []string{"Join us at the European respiratory congress symposium on the future of COPD maintenance therapy.", "@isi-respira"}}}},
	{Title: "Respira social post: breathe like new", Type: "social_post", Audience: "patient", Channel: "Social", Market: "US", Brand: "Respira", Status: "rejected",
		Versions: []demoVersion{{Paragraphs: []string{"Breathe like you're 30 again with Respira!", "Respira works from the very first puff, so you can get back to the things you love.", "@copy-ask", "@isi-respira"}}}},
	{Title: "Cardiomax lipid clinic email", Type: "email", Audience: "hcp", Channel: "Email", Market: "US", Brand: "Cardiomax", Status: "approved", ExpiresInDays: 63,
		Versions: []demoVersion{{Paragraphs: []string{"Dear lipid clinic team,", "Cardiomax (velostatin) offers once-daily LDL-C lowering for adults with primary hyperlipidemia.", "@claim-ldl", "@isi-cardiomax"}}}},
	{Title: "Cardiomax pharmacist leaflet", Type: "print", Audience: "hcp", Channel: "Print", Market: "US", Brand: "Cardiomax", Status: "approved", ExpiresInDays: 162,
		Versions: []demoVersion{
			{Paragraphs: []string{"Cardiomax for pharmacists", "Cardiomax is taken once daily, with or without food.", "@isi-cardiomax"}},
			{Note: "Established name added.", Paragraphs: []string{"Cardiomax (velostatin) for pharmacists", "Cardiomax is taken once daily, with or without food.", "@isi-cardiomax"}},
		}},
	{Title: "Respira nurse training page", Type: "web_page", Audience: "hcp", Channel: "Web", Market: "UK", Brand: "Respira", Status: "approved", ExpiresInDays: 210,
		Versions: []demoVersion{{Paragraphs: []string{"Inhaler technique for respiratory nurses", "Check the patient's technique at every visit.", "@isi-respira"}}}},
	{Title: "Respira web page: managing COPD", Type: "web_page", Audience: "patient", Channel: "Web", Market: "US", Brand: "Respira", Status: "approved", ExpiresInDays: 258,
		Versions: []demoVersion{
			{Paragraphs: []string{"Managing COPD with Respira", "Respira means fewer flare-ups.", "@isi-respira"}},
			{Note: "Study cited; ISI link moved up.", Paragraphs: []string{"Managing COPD with Respira", "@isi-respira", "Respira means fewer flare-ups.", "@claim-fev1"}},
			{Note: "ISI link pinned at the top on phones.", Paragraphs: []string{"@isi-respira", "Managing COPD with Respira", "Respira means fewer flare-ups.", "@claim-fev1"}},
		}},
	{Title: "Cardiomax banner: once daily", Type: "banner", Audience: "hcp", Channel: "Web", Market: "EU", Brand: "Cardiomax", Status: "rejected",
		Versions: []demoVersion{{Paragraphs: []string{"Cardiomax (velostatin): once-daily LDL-C lowering for busy patients.", "@claim-ldl", "@isi-cardiomax"}}}},
	{Title: "Cardiomax congress booth panel", Type: "print", Audience: "hcp", Channel: "Congress", Market: "US", Brand: "Cardiomax", Status: "approved", ExpiresInDays: 307,
		Versions: []demoVersion{{Paragraphs: []string{"Cardiomax (velostatin): LDL-C lowering, once daily.", "@claim-ldl", "@isi-cardiomax"}}}},
	{Title: "Respira email: maintenance matters", Type: "email", Audience: "hcp", Channel: "Email", Market: "UK", Brand: "Respira", Status: "approved", ExpiresInDays: 189,
		Versions: []demoVersion{
			{Paragraphs: []string{"Dear colleague,", "Maintenance treatment with Respira means fewer exacerbations.", "@isi-respira"}},
			{Note: "Study cited, established name added.", Paragraphs: []string{"Dear colleague,", "Maintenance treatment with Respira (tiotropium) means fewer exacerbations.", "@claim-fev1", "@isi-respira"}},
		}},
	{Title: "Living with COPD: video script", Type: "video_script", Audience: "patient", Channel: "Video", Market: "US", Brand: "Respira", Status: "withdrawn",
		Versions: []demoVersion{
			{Paragraphs: []string{"SCENE 1. A grandfather walks with his granddaughter in the park.", "VOICE OVER: Living with COPD can make every breath feel like work.", "@isi-respira"}},
			{Note: "New closing scene.", Paragraphs: []string{"SCENE 1. A grandfather walks with his granddaughter in the park.", "VOICE OVER: Living with COPD can make every breath feel like work.", "SCENE 2. He talks with his doctor about a once-daily maintenance treatment.", "@isi-respira"}},
			{Note: "Claim module added after medical feedback.", Paragraphs: []string{"SCENE 1. A grandfather walks with his granddaughter in the park.", "VOICE OVER: Living with COPD can make every breath feel like work.", "SCENE 2. He talks with his doctor about a once-daily maintenance treatment.", "@claim-fev1", "@isi-respira"}},
		}},
}
