package compliance

import (
	"errors"
	"strings"
	"testing"
	"time"
)

var (
	asOf        = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	zelvora     = &Product{BrandName: "Zelvora", EstablishedName: "velorimab", Indications: "Zelvora is indicated for the add-on maintenance treatment of severe asthma in patients 12 years of age and older.", LaunchDate: time.Date(2022, 3, 1, 0, 0, 0, 0, time.UTC), ISIText: "Zelvora can cause serious allergic reactions, including anaphylaxis.", PIReference: "Please see full Prescribing Information."}
	freshLaunch = &Product{BrandName: "Novatra", EstablishedName: "novatrasib", Indications: "adults with moderate to severe plaque psoriasis", LaunchDate: time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)}
)

func mustCompile(t testing.TB, cfg Config) *Engine {
	t.Helper()
	e, err := Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// quotes returns the quotes of the findings of one rule.
func quotes(fs []Finding, rule string) []string {
	var out []string
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f.Quote)
		}
	}
	return out
}

type ruleCase struct {
	name string
	text string
	// want is the quotes the rule must produce, in order; nil means none.
	want []string
	ctx  *Context
	doc  *Document
}

func runRuleCases(t *testing.T, rule string, def Context, cases []ruleCase) {
	t.Helper()
	e := mustCompile(t, Config{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := def
			if c.ctx != nil {
				ctx = *c.ctx
			}
			doc := Document{Text: c.text}
			if c.doc != nil {
				doc = *c.doc
			}
			fs := e.Check(doc, ctx)
			checkOffsets(t, doc.Text, fs)
			got := quotes(fs, rule)
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("%s on %q:\n got %q\nwant %q", rule, doc.Text, got, c.want)
			}
		})
	}
}

func checkOffsets(t testing.TB, text string, fs []Finding) {
	t.Helper()
	rs := []rune(text)
	for _, f := range fs {
		if f.Start < 0 || f.Start >= f.End || f.End > len(rs) {
			t.Fatalf("finding %+v outside the text (%d code points)", f, len(rs))
		}
		if string(rs[f.Start:f.End]) != f.Quote {
			t.Fatalf("finding %+v: quote differs from text %q", f, string(rs[f.Start:f.End]))
		}
		if f.RuleVersion < 1 || f.Message == "" || !f.Severity.Valid() {
			t.Fatalf("finding %+v lacks version, message or severity", f)
		}
	}
}

func TestSuperlative(t *testing.T) {
	runRuleCases(t, RuleSuperlative, Context{}, []ruleCase{
		{"top-rated", "Sorvane, the top-rated nasal spray among allergists.", []string{"top-rated"}, nil, nil},
		{"leading", "Sorvane is now Canada's leading allergy spray.", []string{"leading"}, nil, nil},
		{"leading cause is not a claim", "Pollen is a leading cause of hay fever; rising counts are leading to more visits.", nil, nil, nil},
		{"definitive", "Sorvane: the definitive answer to seasonal sneezing.", []string{"definitive"}, nil, nil},
		{"definitive diagnosis is not a claim", "A definitive diagnosis needs a skin-prick test.", nil, nil, nil},
		{"second to none and unmatched", "Relief second to none, with unmatched comfort.", []string{"second to none", "unmatched"}, nil, nil},
		{"gone for good", "Sneezing season: gone for good.", []string{"gone for good"}, nil, nil},
		{"endpoint with a number", "At week 4, 38% of patients were symptom-free.", nil, nil, nil},
		{"endpoint with a reference", "More patients were itch-free at day 14 with lumibrolimus.²", nil, nil, nil},
		{"free as an absolute", "Finally, itch-free skin.", []string{"itch-free"}, nil, nil},
		{"best", "It is the best treatment for asthma.", []string{"the best"}, nil, nil},
		{"guaranteed and no side effects", "Guaranteed results with no side effects.", []string{"Guaranteed", "no side effects"}, nil, nil},
		{"upper case and line break", "NO SIDE\nEFFECTS, EVER.", []string{"NO SIDE\nEFFECTS"}, nil, nil},
		{"hyphenated", "A side-effect-free option.", []string{"side-effect-free"}, nil, nil},
		{"en dash and curly quote", "The “game–changer” you’ve waited for.", []string{"game–changer"}, nil, nil},
		{"hyphen broken over a line", "A true break-\nthrough in care.", []string{"break-\nthrough"}, nil, nil},
		{"trademark inside", "The Best™ inhaler.", []string{"The Best"}, nil, nil},
		{"safest, #1, 100%", "The safest, #1 prescribed and 100% effective inhaler.", []string{"safest", "#1", "100%"}, nil, nil},
		{"cures", "Zelvora cures asthma.", []string{"cures"}, nil, nil},
		{"the only", "The only inhaler you need.", []string{"The only"}, nil, nil},
		{"completely safe, revolutionary", "A revolutionary, completely safe medicine.", []string{"revolutionary", "completely safe"}, nil, nil},
		{"no other has been shown", "No other biologic has been shown to cut attacks in half.", []string{"No other biologic has been shown"}, nil, nil},
		{"not negated by a word further back", "No more nausea, guaranteed.", []string{"guaranteed"}, nil, nil},
		{"never again", "You will never feel sick again.", []string{"never"}, nil, nil},
		{"instruction with never", "Never share your pen with another person.", nil, nil, nil},
		{"list item", "Resolution #1: moisturise every day.", nil, nil, nil},
		{"-est adjective", "The easiest inhaler ever made.", []string{"easiest", "ever made"}, nil, nil},
		{"qualified: one of the most", "One of the most effective options available.", nil, nil, nil},
		{"qualified: among the best", "Among the best-studied biologics.", nil, nil, nil},
		{"negated: not the only", "Zelvora is not the only option; talk to your doctor.", nil, nil, nil},
		{"negated: not a cure", "Zelvora is not a cure for asthma. There is no cure for asthma.", nil, nil, nil},
		{"negated: not guaranteed", "Results are not guaranteed.", nil, nil, nil},
		{"advice: works best", "It works best when taken at the same time each day. For best results, rinse.", nil, nil, nil},
		{"sign-off", "Best regards, the Zelvora team", nil, nil, nil},
		{"advice: the best way", "Ask your doctor about the best way to manage your asthma. Decide what is best for you.", nil, nil, nil},
		{"goal", "The ultimate goal of treatment is fewer attacks.", nil, nil, nil},
		{"the comparator named", "Compared with the gold standard therapy.", nil, nil, nil},
		{"medical term", "Treats breakthrough pain.", nil, nil, nil},
		{"cause statistic", "Heart disease is the number one cause of death.", nil, nil, nil},
		{"inside words", "A bestseller in curettage and secure storage.", nil, nil, nil},
	})
}

func TestComparative(t *testing.T) {
	runRuleCases(t, RuleComparative, Context{}, []ruleCase{
		{"advantage over", "Sorvane has a real advantage over older sprays.", []string{"advantage over"}, nil, nil},
		{"edge over", "The edge over cetirizine: no drowsiness.", []string{"edge over"}, nil, nil},
		{"do better", "Still sneezing on loratadine? You can do better.", []string{"can do better"}, nil, nil},
		{"hyphenated outperform", "Sorvane out-performed fluticasone on nasal congestion.", []string{"out-performed"}, nil, nil},
		{"wins head-to-head", "Sorvane wins head-to-head against mometasone.", []string{"wins head-to-head"}, nil, nil},
		{"shown to with a verb is not a comparison", "No other spray has been shown to clear congestion as well as sorvane.", nil, nil, nil},
		{"better than", "Better than lisinopril.", []string{"Better than"}, nil, nil},
		{"superior to", "Zelvora was superior to placebo.", []string{"superior to"}, nil, nil},
		{"more effective than", "It is more effective than albuterol.", []string{"more effective than"}, nil, nil},
		{"fewer … than", "Fewer exacerbations than fluticasone.", []string{"Fewer exacerbations than"}, nil, nil},
		{"vs.", "Results vs. salmeterol in a 52-week trial.", []string{"vs."}, nil, nil},
		{"unlike", "Unlike daily inhalers, Zelvora is given monthly.", []string{"Unlike"}, nil, nil},
		{"more … than, further back", "Patients were more likely to stay on therapy than with other biologics.", []string{"more likely to stay on therapy than"}, nil, nil},
		{"compared with", "Exacerbations halved compared with montelukast.", []string{"compared with"}, nil, nil},
		{"-er than", "Works faster than the leading inhaler.", []string{"faster than"}, nil, nil},
		{"more than a product", "It lowered pressure 5 mmHg more than\nlosartan.", []string{"more than"}, nil, nil},
		{"better than a count", "One capsule is better than two pills.", []string{"better than"}, nil, nil},
		{"beats", "Twice a year beats weekly tablets.", []string{"beats"}, nil, nil},
		{"add-on", "For adults who need more than insulin alone.", nil, nil, nil},
		{"unit, not a marker", "Superior to fosaprepitant at 70 mg/m².", []string{"Superior to"}, nil, nil},
		{"superscript reference", "Better than lisinopril.¹", nil, nil, nil},
		{"bracketed reference", "Superior to placebo [1,2].", nil, nil, nil},
		{"bracketed range with en dash", "Superior to placebo [1–3].", nil, nil, nil},
		{"footnote symbol", "Better than placebo.†", nil, nil, nil},
		{"asterisk on a word", "Better than placebo*", nil, nil, nil},
		{"baseline", "Attacks fell by half compared with baseline.", nil, nil, nil},
		{"pre-study year", "Hospital visits fell compared with the pre-study year.", nil, nil, nil},
		{"year before", "Fewer attacks than in the year before treatment.", nil, nil, nil},
		{"quantities", "More than 300 patients; less than 1 in 10 had nausea.", nil, nil, nil},
		{"age", "For children older than 12 years.", nil, nil, nil},
		{"rather than", "Once a month rather than every day.", nil, nil, nil},
		{"study design", "Zelvora was compared with placebo in two 52-week studies.", nil, nil, nil},
		{"age limit", "Patients aged greater than or equal to 12 years.", nil, nil, nil},
		{"instruction", "Do not use more often than prescribed.", nil, nil, nil},
		{"linked claim", "Zelvora was superior to placebo.", nil, &Context{LinkedClaims: []Span{{0, 32}}}, nil},
		{"caller's markers", "Zelvora was superior to placebo.", nil, nil, &Document{Text: "Zelvora was superior to placebo.", ReferenceMarkers: []Span{{31, 32}}}},
	})
}

func TestUnsubstantiated(t *testing.T) {
	runRuleCases(t, RuleUnsubstantiated, Context{}, []ruleCase{
		{"percent", "Zelvora reduced exacerbations by 40%.", []string{"Zelvora reduced exacerbations by 40%."}, nil, nil},
		{"improves", "Improves lung function from week 1.", []string{"Improves lung function from week 1."}, nil, nil},
		{"clinically proven", "Clinically proven relief.", []string{"Clinically proven relief."}, nil, nil},
		{"helps reduce", "Zelvora helps reduce flares.", []string{"Zelvora helps reduce flares."}, nil, nil},
		{"one per sentence", "Up to 80% of patients improved and 60% reduced their dose.", []string{"Up to 80% of patients improved and 60% reduced their dose."}, nil, nil},
		{"two sentences", "It reduced attacks. It improved sleep.", []string{"It reduced attacks.", "It improved sleep."}, nil, nil},
		{"rate", "7 out of 10 patients had no attacks.", []string{"7 out of 10 patients had no attacks."}, nil, nil},
		{"label's adverse reaction rates", "The most common side effects were headache (12%) and back pain (5%).", nil, nil, nil},
		{"safety claim", "Safe for infants from 3 months.", []string{"Safe for infants from 3 months."}, nil, nil},
		{"comparison of results", "It lowered HbA1c further than dulaglutide at week 40.", []string{"It lowered HbA1c further than dulaglutide at week 40."}, nil, nil},
		{"comparison with a quantity", "Bremadol cut flares by 30% versus cromolyn.", []string{"Bremadol cut flares by 30% versus cromolyn."}, nil, nil},
		{"bare ranking is the comparative rule's", "Bremadol outshone cromolyn and is more effective than montelukast.", nil, nil, nil},
		{"better tolerated ranking", "Sorvane is better tolerated than older antihistamines.", nil, nil, nil},
		{"quantity, not a ranking", "Proven in more than 9,000 adults.", []string{"Proven in more than 9,000 adults."}, nil, nil},
		{"adverse reaction disclosure", "Constipation was reported by 1.8% of patients on sorvane and 1.6% on placebo.", nil, nil, nil},
		{"discontinuation disclosure", "Under 4% of people stopped treatment because of side effects.", nil, nil, nil},
		{"eligibility criteria", "Coverage criteria: HbA1c of 7.5% or above despite metformin for 3 months.", nil, nil, nil},
		{"who the product is for", "Sorvane is for adults with hay fever who need further symptom relief.", nil, nil, nil},
		{"titration instruction", "Sorvane 10 mg once daily; titrate to 20 mg after two weeks if needed.", nil, nil, nil},
		{"dose with a result is a claim", "Sorvane 10 mg once daily reduced sneezing scores.", []string{"Sorvane 10 mg once daily reduced sneezing scores."}, nil, nil},
		{"baseline demographics", "In the study, 54% were women and 33% were aged 70 or over.", nil, nil, nil},
		{"baseline history", "Overall, 48% had a previous hospitalisation and 22% with asthma.", nil, nil, nil},
		{"a result in patients", "In the study, 54% of patients were symptom-free at week 12.", []string{"In the study, 54% of patients were symptom-free at week 12."}, nil, nil},
		{"baseline values", "Baseline characteristics: mean FEV1 1.4 L; mean systolic 148 mmHg.", nil, nil, nil},
		{"a fall from baseline", "Systolic pressure fell from 152 mmHg at baseline to 131 mmHg.", []string{"Systolic pressure fell from 152 mmHg at baseline to 131 mmHg."}, nil, nil},
		{"tagline with a topic", "A fresh approach in blood pressure lowering.", nil, nil, nil},
		{"an absolute ranking without a result is the superlative's", "Sorvane: unmatched allergy control.", nil, nil, nil},
		{"a ranking with a measured result", "Unmatched 24-hour relief of nasal congestion.", []string{"Unmatched 24-hour relief of nasal congestion."}, nil, nil},
		{"zero of a kind of side effect", "Sorvane: zero sedating side effects.", []string{"Sorvane: zero sedating side effects."}, nil, nil},
		{"statement of use", "Sorvane for the seasonal prevention of hay fever.", nil, nil, nil},
		{"statement of use with a result", "Sorvane for the prevention of hay fever: 41% fewer symptom days.", []string{"Sorvane for the prevention of hay fever: 41% fewer symptom days."}, nil, nil},
		{"qualified positioning", "Sorvane is one of several once-daily options for improving nasal symptoms.", nil, nil, nil},
		{"comparison of convenience", "Easier than daily injections: just once a week.", nil, nil, nil},
		{"strength of a cream", "Try lumibrolimus cream 0.1% today.", nil, nil, nil},
		{"instruction in the trigger's words", "Reduce waste: return used pens to the pharmacy.", nil, nil, nil},
		{"adverse reaction disclosure", "Most common adverse reactions (≥5%) were nausea and decreased appetite.", nil, nil, nil},
		{"superscript", "Zelvora reduced exacerbations by 40%.¹", nil, nil, nil},
		{"superscript before full stop", "Zelvora reduced exacerbations by 40%² in year one.", nil, nil, nil},
		{"bracket", "Zelvora reduced exacerbations by 40% [3].", nil, nil, nil},
		{"dagger", "Zelvora reduced exacerbations by 40%.‡", nil, nil, nil},
		{"section sign", "Improved lung function§", nil, nil, nil},
		{"flattened superscript", "Zelvora reduced exacerbations by 40%.12 Ask your doctor.", nil, nil, nil},
		{"instruction: to help reduce", "Rinse your mouth with water after each dose to help reduce the risk of thrush.", nil, nil, nil},
		{"instruction: purpose", "Use a spacer to reduce the risk of side effects.", nil, nil, nil},
		{"no data", "It is not known if Zelvora is safe and effective in children under 12.", nil, nil, nil},
		{"negated", "Zelvora has not demonstrated an effect on mortality.", nil, nil, nil},
		{"savings", "Save 20% on every refill with the savings card.", nil, nil, nil},
		{"drug class", "Tell your doctor about cholesterol-lowering medicines.", nil, nil, nil},
		{"help from a person", "Your doctor can help you decide.", nil, nil, nil},
		{"help with costs", "Zelvora Complete can help you pay for your medicine.", nil, nil, nil},
		{"service hours", "Nurses are available 24-hour support line.", nil, nil, nil},
		{"indication", "Zelvora is indicated to reduce exacerbations in severe asthma.", nil, nil, nil},
		{"linked claim", "Zelvora reduced exacerbations by 40%.", nil, &Context{LinkedClaims: []Span{{0, 37}}}, nil},
		{"claim module", "Zelvora reduced exacerbations by 40%.", nil, nil, &Document{Text: "Zelvora reduced exacerbations by 40%.", Modules: []ModuleSpan{{Span: Span{0, 37}, Kind: "claim"}}}},
		{"inside ISI", "IMPORTANT SAFETY INFORMATION\nIn studies, 12% of patients had headache.", nil, nil, nil},
	})
}

func TestEstablishedName(t *testing.T) {
	ctx := Context{Product: zelvora}
	runRuleCases(t, RuleEstablishedName, ctx, []ruleCase{
		{"alone", "Ask your doctor about Zelvora.", []string{"Zelvora"}, nil, nil},
		{"with trademark", "Zelvora® works differently.", []string{"Zelvora"}, nil, nil},
		{"paired", "Zelvora® (velorimab) works differently.", nil, nil, nil},
		{"paired later in the sentence", "Zelvora, the brand of velorimab, works differently.", nil, nil, nil},
		{"established name first", "Velorimab (Zelvora) works differently.", nil, nil, nil},
		{"once per page", "Zelvora (velorimab) works. Zelvora is taken monthly.", nil, nil, nil},
		{"second page without it", "Zelvora (velorimab) works.\fAsk about Zelvora today.", []string{"Zelvora"}, nil, nil},
		{"web address", "Visit www.zelvora.com today.", nil, nil, nil},
		{"no product", "Ask your doctor about Zelvora.", nil, &Context{}, nil},
		{"brand of two words by its first", "Ask about Cardiomax today.", []string{"Cardiomax"}, &Context{Product: &Product{BrandName: "Cardiomax XR", EstablishedName: "atorvastatin calcium"}}, nil},
		{"established name by its first word", "Cardiomax XR (atorvastatin) works.", nil, &Context{Product: &Product{BrandName: "Cardiomax XR", EstablishedName: "atorvastatin calcium"}}, nil},
	})
}

func TestOffLabel(t *testing.T) {
	ctx := Context{Product: zelvora}
	runRuleCases(t, RuleOffLabel, ctx, []ruleCase{
		{"population", "Now for children with severe asthma.", []string{"children"}, nil, nil},
		{"condition", "Also helps people with COPD breathe.", []string{"COPD"}, nil, nil},
		{"pregnancy and elderly", "Great for pregnant women and the elderly.", []string{"pregnant", "elderly"}, nil, nil},
		{"on label", "For severe asthma that is hard to control.", nil, nil, nil},
		{"benefit claimed against a risk", "Zelvora reduced the risk of stroke.", []string{"stroke"}, nil, nil},
		{"risk warned of", "Zelvora may increase the risk of pneumonia.", nil, nil, nil},
		{"question to a parent", "If your child has severe asthma, ask about Zelvora.", []string{"child"}, nil, nil},
		{"age covers adolescents", "Made for teens with severe asthma.", nil, nil, nil},
		{"safety statement", "Tell your doctor if you are pregnant or plan to become pregnant.", nil, nil, nil},
		{"not studied", "Zelvora has not been studied in children under 12.", nil, nil, nil},
		{"storage", "Keep out of reach of children.", nil, nil, nil},
		{"condition by its ending", "Zelvora in patients with bronchiectasis.", []string{"bronchiectasis"}, nil, nil},
		{"condition phrase", "Also for cold sores and radiation-induced nausea.", []string{"cold sores", "radiation-induced nausea"}, nil, nil},
		{"severity beyond the label", "For mild asthma too.", []string{"mild asthma"}, nil, nil},
		{"label's own range", "Reduced moderate-to-severe asthma attacks.", nil, nil, nil},
		{"age under the label", "Use in patients aged 6 years.", []string{"aged 6"}, nil, nil},
		{"age inside the label", "Use in patients aged 14 years.", nil, nil, nil},
		{"an event's name", "World Asthma Day is in May.", nil, nil, nil},
		{"ISI", "IMPORTANT SAFETY INFORMATION\nDo not use Zelvora to treat COPD.", nil, nil, nil},
		{"no indications", "Now for children.", nil, &Context{Product: &Product{BrandName: "X"}}, nil},
	})
	// A product for the acute treatment of gout flares, used with
	// allopurinol, for the labels' use modifiers and condition families.
	podra := &Product{BrandName: "Podrava", EstablishedName: "colvenibart",
		Indications: "PODRAVA is indicated as an adjunct to allopurinol therapy for the acute treatment of gout flares in adults. " +
			"Limitations of use: PODRAVA is not indicated for the prophylaxis of gout flares."}
	bladder := &Product{BrandName: "Urelix", EstablishedName: "tarofenacin",
		Indications: "URELIX is indicated for the treatment of overactive bladder with symptoms of urge urinary incontinence, urgency and frequency in adults."}
	pctx := Context{Product: podra}
	bctx := Context{Product: bladder}
	runRuleCases(t, RuleOffLabel, pctx, []ruleCase{
		{"prevention against an acute label", "Podrava: daily prophylaxis between flares.", []string{"prophylaxis"}, nil, nil},
		{"symptom of the indicated condition", "Colvenibart eased joint pain within 24 hours of a gout flare.", nil, nil, nil},
		{"another condition of the same family", "Colvenibart also calms septic arthritis and tendinitis.", []string{"septic arthritis", "tendinitis"}, nil, nil},
		{"baseline history", "At entry, 40% of patients had a prior kidney stone and 30% had chronic kidney disease at baseline.", nil, nil, nil},
		{"history before the condition", "Patients with a history of psoriasis were enrolled.", nil, nil, nil},
		{"endpoint of the indicated condition", "Colvenibart: 2-hour pain relief in the gout flare studies.", nil, nil, nil},
	})
	runRuleCases(t, RuleOffLabel, bctx, []ruleCase{
		{"other incontinence", "Urelix for overflow incontinence after surgery.", []string{"overflow incontinence"}, nil, nil},
		{"label's incontinence", "Fewer urge urinary incontinence episodes each day.", nil, nil, nil},
		{"daily endpoint", "Reduced mean daily incontinence episodes at week 12.", nil, nil, nil},
		{"prostate", "Urelix for men with an enlarged prostate and BPH.", []string{"enlarged prostate", "BPH"}, nil, nil},
		{"night-time condition by its ending", "Urelix for nocturia.", []string{"nocturia"}, nil, nil},
		{"symptom named in the label", "Less urgency and fewer leaks.", nil, nil, nil},
	})
	lipid := &Product{BrandName: "Corlanza", EstablishedName: "vetrolimab",
		Indications: "CORLANZA is indicated as an adjunct to diet and statin therapy to reduce LDL-C in adults with established atherosclerotic cardiovascular disease (ASCVD)."}
	runRuleCases(t, RuleOffLabel, Context{Product: lipid}, []ruleCase{
		{"the label's population in plain words", "For adults with coronary artery disease who take a statin.", nil, nil, nil},
		{"without the background therapy", "For patients who cannot take a statin.", []string{"cannot take a statin"}, nil, nil},
		{"the other lipid", "Vetrolimab raises HDL too.", []string{"raises HDL"}, nil, nil},
		{"triglycerides", "Also lowers triglycerides.", []string{"triglycerides"}, nil, nil},
	})
}

func TestNewClaim(t *testing.T) {
	late := Context{Product: zelvora, AsOf: asOf}
	runRuleCases(t, RuleNewClaim, late, []ruleCase{
		{"new hope", "Zelvora brings new hope to people with severe asthma.", []string{"new"}, nil, nil},
		{"place with a possessive", "Covered on New Mexico's state formulary.", nil, nil, nil},
		{"new to a condition", "New to inhalers? Start with our technique videos.", nil, nil, nil},
		{"new to the market", "Zelvora, new to UK pharmacies this spring.", []string{"new"}, nil, nil},
		{"years after launch", "Discover the new Zelvora inhaler.", []string{"new"}, nil, nil},
		{"capital", "NEW: once-monthly dosing.", []string{"NEW"}, nil, nil},
		{"within six months", "Discover the new Novatra.", nil, &Context{Product: freshLaunch, AsOf: asOf}, nil},
		{"launch unknown", "Discover the new Zelvora inhaler.", nil, &Context{Product: &Product{BrandName: "Zelvora"}, AsOf: asOf}, nil},
		{"date of the check unknown means today", "Discover the new Zelvora inhaler.", []string{"new"}, &Context{Product: zelvora}, nil},
		{"place", "Join us in New York.", nil, nil, nil},
		{"new patients", "Enrol new patients in the support programme.", nil, nil, nil},
		{"new medicines", "Tell your doctor before you start any new medicines.", nil, nil, nil},
		{"new symptoms", "Call your doctor about new or worsening symptoms.", nil, nil, nil},
		{"new fractures", "Zelvora reduced new vertebral fractures.", nil, nil, nil},
		{"what's new elsewhere", "What's new in the asthma guidelines? Join our webinar.", nil, nil, nil},
		{"what's new, then the product", "What's new for severe asthma? Zelvora, once a month.", []string{"new"}, nil, nil},
		{"other words", "Renew your prescription; read the news.", nil, nil, nil},
	})
}

func TestExpiredModule(t *testing.T) {
	text := "Intro text. Claim text here. Footer."
	doc := func(m ModuleSpan) *Document {
		return &Document{Text: text, Modules: []ModuleSpan{m}}
	}
	runRuleCases(t, RuleExpiredModule, Context{AsOf: asOf}, []ruleCase{
		{"past expiry", text, []string{"Claim text here."}, nil, doc(ModuleSpan{Span: Span{12, 28}, Kind: "claim", ExpiresOn: asOf.AddDate(0, 0, -1)})},
		{"expires today", text, []string{"Claim text here."}, nil, doc(ModuleSpan{Span: Span{12, 28}, Kind: "module", ExpiresOn: asOf})},
		{"retired", text, []string{"Claim text here."}, nil, doc(ModuleSpan{Span: Span{12, 28}, Kind: "module", Expired: true})},
		{"still valid", text, nil, nil, doc(ModuleSpan{Span: Span{12, 28}, Kind: "module", ExpiresOn: asOf.AddDate(0, 1, 0)})},
		{"span clamped", text, []string{"Footer."}, nil, doc(ModuleSpan{Span: Span{29, 400}, Kind: "module", Expired: true})},
	})
}

func TestPIReferenceAndFairBalance(t *testing.T) {
	e := mustCompile(t, Config{})
	claim := "Zelvora (velorimab) reduced attacks by 40%.¹"
	cases := []struct {
		name, text, assetType string
		modules               []ModuleSpan
		wantFB, wantPI        bool
	}{
		{"email without ISI or PI", claim, "email", nil, true, true},
		{"ISI heading and PI", claim + "\n\nIMPORTANT SAFETY INFORMATION\nZelvora can cause serious allergic reactions.\nPlease see full Prescribing Information.", "email", nil, false, false},
		{"product's ISI text", claim + " Zelvora can cause serious allergic reactions, including anaphylaxis. Please see full Prescribing Information.", "banner", nil, false, false},
		{"ISI module", claim + " Safety text.", "print", []ModuleSpan{{Span: Span{45, 57}, Kind: "module", ISI: true}}, false, true},
		{"not promotional", claim, "other", nil, false, false},
		{"asset type unknown", claim, "", nil, false, false},
		{"no claims", "Zelvora (velorimab) is available in pharmacies.", "email", nil, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := e.Check(Document{Text: c.text, Modules: c.modules}, Context{Product: zelvora, AssetType: c.assetType})
			checkOffsets(t, c.text, fs)
			if got := len(quotes(fs, RuleFairBalance)) > 0; got != c.wantFB {
				t.Errorf("fair-balance: got %v want %v (%+v)", got, c.wantFB, fs)
			}
			if got := len(quotes(fs, RulePIReference)) > 0; got != c.wantPI {
				t.Errorf("pi-reference: got %v want %v (%+v)", got, c.wantPI, fs)
			}
		})
	}
}

func TestChannelLength(t *testing.T) {
	long := strings.Repeat("Breathe easy. ", 25) // 350 code points
	runRuleCases(t, RuleChannelLength, Context{Channel: "Twitter"}, []ruleCase{
		{"over 280", long, []string{string([]rune(long)[280:])}, nil, nil},
		{"fits", "Short post.", nil, nil, nil},
		{"other channel", long, nil, &Context{Channel: "Email"}, nil},
		{"social without ISI link", "Zelvora (velorimab) helps you breathe.¹", []string{"Zelvora"}, &Context{Channel: "Instagram", AssetType: "social_post", Product: zelvora}, nil},
		{"social with ISI link", "Zelvora (velorimab) helps you breathe.¹ ISI: zelvora.com/isi", nil, &Context{Channel: "Instagram", AssetType: "social_post", Product: zelvora}, nil},
	})
}

func TestReadability(t *testing.T) {
	hard := "Pharmacokinetic characterization demonstrated considerable interindividual variability in systemic exposure following subcutaneous administration, necessitating individualized therapeutic monitoring considerations for immunocompromised populations."
	easy := "Take one shot each month. It helps you breathe. Keep your inhaler with you. Call us if you have a question about your care or your bill."
	runRuleCases(t, RuleReadability, Context{Audience: "patient"}, []ruleCase{
		{"hard for patients", hard, []string{hard}, nil, nil},
		{"plain", easy, nil, nil, nil},
		{"HCP audience", hard, nil, &Context{Audience: "hcp"}, nil},
	})
}

func TestOrganisationRules(t *testing.T) {
	cfg := Config{Rules: []Rule{
		{Code: "wonder", Version: 3, Kind: "phrases", Phrases: []string{"wonder drug", "doctor’s choice"}, Severity: Warning, Message: "Avoid puffery.", Guidance: "Say what it does."},
		{Code: "remedy", Version: 1, Kind: "phrases", Phrases: []string{"remedy", "cure-all"}, Severity: Info, Message: "Avoid remedy."},
		{Code: "trial", Version: 1, Kind: "regex", Pattern: `(?i)\bfree\s+trial\b`, Severity: Critical, Message: "No free trials."},
		{Code: "email-only", Version: 1, Kind: "phrases", Phrases: []string{"click here"}, Severity: Warning, Message: "Say where.", Scope: Scope{AssetTypes: []string{"email"}, Markets: []string{"US"}}},
	}}
	e := mustCompile(t, cfg)
	text := "The Wonder\ndrugs and wonder-drug are the doctor's choice. Two remedies and a cure-all. Free  Trial! Click here. Wonderful."
	fs := e.Check(Document{Text: text}, Context{AssetType: "banner"})
	checkOffsets(t, text, fs)
	if got := strings.Join(quotes(fs, "wonder"), "|"); got != "Wonder\ndrugs|wonder-drug|doctor's choice" {
		t.Errorf("wonder: %q", got)
	}
	if got := strings.Join(quotes(fs, "remedy"), "|"); got != "remedies|cure-all" {
		t.Errorf("remedy: %q", got)
	}
	if got := strings.Join(quotes(fs, "trial"), "|"); got != "Free  Trial" {
		t.Errorf("trial: %q", got)
	}
	if len(quotes(fs, "email-only")) != 0 {
		t.Errorf("a banner is out of the email-only rule's scope")
	}
	for _, f := range fs {
		if f.Rule == "wonder" && (f.RuleVersion != 3 || f.Severity != Warning || f.Message != "Avoid puffery." || f.Guidance != "Say what it does.") {
			t.Errorf("org finding %+v does not carry its rule's version and texts", f)
		}
	}
	fs = e.Check(Document{Text: text}, Context{AssetType: "email"})
	if len(quotes(fs, "email-only")) != 1 {
		t.Errorf("email in an unknown market is in scope: %+v", fs)
	}
	fs = e.Check(Document{Text: text}, Context{AssetType: "email", Market: "EU"})
	if len(quotes(fs, "email-only")) != 0 {
		t.Errorf("EU is out of scope")
	}
}

func TestConfigSwitchesAndSeverities(t *testing.T) {
	text := "The best inhaler. Better than albuterol."
	e := mustCompile(t, Config{Disabled: map[string]bool{RuleComparative: true}, Severities: map[string]Severity{RuleSuperlative: Info}})
	fs := e.Check(Document{Text: text}, Context{})
	if len(quotes(fs, RuleComparative)) != 0 {
		t.Errorf("comparative is disabled: %+v", fs)
	}
	sup := quotes(fs, RuleSuperlative)
	if len(sup) != 1 || fs[0].Severity != Info || fs[0].RuleVersion != builtinVersion {
		t.Errorf("superlative with severity info expected: %+v", fs)
	}
}

func TestCompileErrors(t *testing.T) {
	bad := []Config{
		{Rules: []Rule{{Code: "x", Kind: "regex", Pattern: "(", Severity: Warning}}},
		{Rules: []Rule{{Code: "x", Kind: "phrases", Phrases: []string{" ", "®"}, Severity: Warning}}},
		{Rules: []Rule{{Code: RuleSuperlative, Kind: "phrases", Phrases: []string{"a"}, Severity: Warning}}},
		{Rules: []Rule{{Code: "x", Kind: "phrases", Phrases: []string{"a"}, Severity: "high"}}},
		{Rules: []Rule{{Code: "x", Kind: "words", Phrases: []string{"a"}, Severity: Warning}}},
		{Rules: []Rule{{Code: "x", Kind: "phrases", Phrases: []string{"a"}, Severity: Warning}, {Code: "x", Kind: "phrases", Phrases: []string{"b"}, Severity: Warning}}},
		{Severities: map[string]Severity{RuleSuperlative: "major"}},
		{Severities: map[string]Severity{"made-up": Warning}},
	}
	fields := []string{"pattern", "phrases", "code", "severity", "kind", "code", "severity", "code"}
	for i, c := range bad {
		_, err := Compile(c)
		var re *RuleError
		if !errors.As(err, &re) || re.Field != fields[i] {
			t.Errorf("config %d: error %v, want one about %s", i, err, fields[i])
		}
	}
}

func TestBuiltins(t *testing.T) {
	bs := Builtins()
	if len(bs) != 11 {
		t.Fatalf("%d built-ins", len(bs))
	}
	want := map[string]Severity{RuleSuperlative: Critical, RuleComparative: Critical, RuleUnsubstantiated: Warning, RuleFairBalance: Critical, RuleOffLabel: Critical, RuleExpiredModule: Critical, RuleReadability: Warning}
	for _, b := range bs {
		if b.Title == "" || b.Summary == "" || b.Version < 1 || !b.Severity.Valid() {
			t.Errorf("built-in %+v incomplete", b)
		}
		if w, ok := want[b.Code]; ok && w != b.Severity {
			t.Errorf("%s: default %s, want %s", b.Code, b.Severity, w)
		}
	}
}

func TestCodePointOffsets(t *testing.T) {
	e := mustCompile(t, Config{})
	text := "😀 Café “crème” — naïve: the best\u00a0option, guaranteed."
	fs := e.Check(Document{Text: text}, Context{})
	checkOffsets(t, text, fs)
	if got := strings.Join(quotes(fs, RuleSuperlative), "|"); got != "the best|guaranteed" {
		t.Errorf("got %q", got)
	}
	rs := []rune(text)
	for _, f := range fs {
		if f.Rule == RuleSuperlative && f.Quote == "the best" {
			if f.Start != len([]rune("😀 Café “crème” — naïve: ")) || string(rs[f.Start:f.End]) != "the best" {
				t.Errorf("offsets %+v", f)
			}
		}
	}
}

func TestEmailFromTheIssue(t *testing.T) {
	e := mustCompile(t, Config{})
	text := "Dear Dr. Smith,\n\nZelvora is the best treatment for severe asthma. Guaranteed results with no side effects. Better than lisinopril.\n\nBest regards"
	fs := e.Check(Document{Text: text}, Context{Product: zelvora, AssetType: "email", Audience: "hcp", AsOf: asOf})
	checkOffsets(t, text, fs)
	critical := 0
	for _, f := range fs {
		if f.Severity == Critical {
			critical++
		}
	}
	if critical < 4 {
		t.Errorf("want the superlatives, comparison and missing fair balance as critical: %+v", fs)
	}
	if got := strings.Join(quotes(fs, RuleSuperlative), "|"); got != "the best|Guaranteed|no side effects" {
		t.Errorf("superlatives %q", got)
	}
}

func TestRunningHeadersSkipped(t *testing.T) {
	e := mustCompile(t, Config{})
	page := func(n int, body string) string {
		return "Zelvora | The #1 choice\n" + body + "\nPage " + string(rune('0'+n)) + " of 3"
	}
	text := page(1, "Asthma control matters.") + "\f" + page(2, "Still the best option today.") + "\f" + page(3, "Talk to your doctor.")
	fs := e.Check(Document{Text: text}, Context{})
	checkOffsets(t, text, fs)
	if got := strings.Join(quotes(fs, RuleSuperlative), "|"); got != "the best" {
		t.Errorf("got %q: the header's #1 is skipped, the body's best is not", got)
	}
	// With explicit page spans.
	rs := []rune(text)
	var pages []Span
	start := 0
	for i, r := range rs {
		if r == '\f' {
			pages = append(pages, Span{start, i})
			start = i + 1
		}
	}
	pages = append(pages, Span{start, len(rs)})
	fs = e.Check(Document{Text: text, Pages: pages}, Context{})
	if got := strings.Join(quotes(fs, RuleSuperlative), "|"); got != "the best" {
		t.Errorf("with pages: got %q", got)
	}
}
