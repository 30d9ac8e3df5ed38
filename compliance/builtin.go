package compliance

// The built-in rules' texts. Messages say what is wrong; guidance says what
// a marketer does about it.
type builtinText struct {
	title, summary, message, guidance string
	severity                          Severity
}

// builtinVersion is the version of every built-in rule; it goes up when a
// rule's behaviour changes so a finding says which behaviour produced it.
const builtinVersion = 1

var builtinOrder = []string{
	RuleSuperlative, RuleComparative, RuleUnsubstantiated, RuleFairBalance, RuleEstablishedName,
	RuleOffLabel, RuleNewClaim, RuleExpiredModule, RulePIReference, RuleChannelLength, RuleReadability,
}

// Default severities: absolutes, comparisons without a reference, missing
// fair balance, off-label promotion and expired content are what regulators
// cite in warning letters, so they block submission (critical); the others
// are things a reviewer weighs (warning).
var builtinTexts = map[string]builtinText{
	RuleSuperlative: {
		title:    "Unqualified superlatives and absolutes",
		summary:  "Words such as best, safest, only, #1, guaranteed, cure, 100%, no side effects, completely safe, revolutionary or breakthrough, unless qualified (\"one of the most\", \"not the only\").",
		message:  "Unqualified superlative or absolute claim.",
		guidance: "Regulators read superlatives and absolutes as claims that need head-to-head evidence, and absolutes about safety as misleading. Remove the word, or qualify it and support it with a reference (for example \"one of the most prescribed\" with its source).",
		severity: Critical,
	},
	RuleComparative: {
		title:    "Comparative claims without a reference",
		summary:  "Comparisons (better than, superior to, more effective than, vs., compared with) with no reference marker or linked claim; a comparison with the patient's own baseline is not one.",
		message:  "Comparative claim with no reference.",
		guidance: "A comparison with another product or treatment needs head-to-head data. Add the reference marker for the study that supports it, or link an approved claim; otherwise remove the comparison.",
		severity: Critical,
	},
	RuleUnsubstantiated: {
		title:    "Efficacy or safety statements without a reference",
		summary:  "Statements of effect (percentages, reduces, improves, demonstrated, proven, shown to) with no reference marker or linked claim. Instructions such as \"to help reduce the risk\" are not claims.",
		message:  "Efficacy or safety statement with no reference.",
		guidance: "Add a reference marker (superscript number, [1] or a footnote symbol) pointing to the study or label section, or use an approved claim from the claims library; if no source exists, rephrase without the result.",
		severity: Warning,
	},
	RuleFairBalance: {
		title:    "Fair balance: efficacy without safety information",
		summary:  "A promotional piece for a product that makes efficacy claims but carries no Important Safety Information text or ISI module.",
		message:  "Efficacy claims without Important Safety Information.",
		guidance: "Promotional pieces that state benefits must present the risks with comparable prominence. Insert the product's approved ISI module (or its full ISI text) in this piece.",
		severity: Critical,
	},
	RuleEstablishedName: {
		title:    "Brand name without the established name",
		summary:  "The brand name is featured without the established (generic) name near it (21 CFR 202.1).",
		message:  "Brand name used without its established name nearby.",
		guidance: "Place the established name next to the brand name, for example \"Brand (established name)\", at least where the brand is first and most prominently shown on each page.",
		severity: Warning,
	},
	RuleOffLabel: {
		title:    "Off-label indications or populations",
		summary:  "Condition or population terms (children, pregnant women, elderly, a disease) that are not in the product's approved indications.",
		message:  "Indication or population not in the approved indications.",
		guidance: "Promotion may only cover the approved indications and populations. Remove the term, or change it to the population and condition on the label; safety statements about a population belong in the ISI.",
		severity: Critical,
	},
	RuleNewClaim: {
		title:    "\"New\" more than six months after launch",
		summary:  "The word \"new\" used for a product launched more than six months before the date of the check.",
		message:  "\"New\" used more than six months after launch.",
		guidance: "FDA expects \"new\" to describe a product or indication for about six months after it becomes available. Remove \"new\" or replace it with a factual, dated statement (for example \"approved in March 2024\").",
		severity: Warning,
	},
	RuleExpiredModule: {
		title:    "Expired modules and claims",
		summary:  "Text of an inserted module or claim past its expiry date, or already expired or retired.",
		message:  "This module or claim has expired.",
		guidance: "Expired content may no longer be used. Replace it with the current version of the module or claim, or remove it.",
		severity: Critical,
	},
	RulePIReference: {
		title:    "Missing Prescribing Information statement",
		summary:  "A promotional piece naming the product without a \"see full Prescribing Information\" statement.",
		message:  "No \"see full Prescribing Information\" statement.",
		guidance: "Add the product's statement directing readers to the full Prescribing Information (for example \"Please see full Prescribing Information, including Boxed Warning\") with a link or where it is provided.",
		severity: Warning,
	},
	RuleChannelLength: {
		title:    "Social posts over length or without an ISI link",
		summary:  "A social post longer than its channel allows (X/Twitter 280, Threads 500, Bluesky 300, Instagram and TikTok 2,200, LinkedIn 3,000, SMS 160), or one for a product without a link to its safety information.",
		message:  "The post does not fit the channel.",
		guidance: "Shorten the post to fit the channel; the platform cuts the rest, and with it any safety information.",
		severity: Warning,
	},
	RuleReadability: {
		title:    "Reading level above grade 8 for patients",
		summary:  "Patient-audience paragraphs whose Flesch–Kincaid grade is above 8.",
		message:  "Reading level above grade 8 for a patient audience.",
		guidance: "Patient materials should read at grade 8 or below: use shorter sentences, everyday words instead of medical terms, and one idea per sentence.",
		severity: Warning,
	},
}

// Builtins lists the built-in rules in display order.
func Builtins() []BuiltinRule {
	out := make([]BuiltinRule, 0, len(builtinOrder))
	for _, code := range builtinOrder {
		t := builtinTexts[code]
		out = append(out, BuiltinRule{Code: code, Version: builtinVersion, Title: t.title, Severity: t.severity, Summary: t.summary})
	}
	return out
}

// IsBuiltin reports whether code is a built-in rule's code.
func IsBuiltin(code string) bool {
	_, ok := builtinTexts[code]
	return ok
}

// Superlative and absolute phrases. Inflected forms are written out; the
// words a superlative is qualified or negated by are in rules.go.
var superlativePhrases = []string{
	"best", "the best", "safest", "strongest", "fastest", "greatest", "most effective", "most powerful",
	"most potent", "most advanced", "most trusted", "most prescribed", "most complete", "most comprehensive",
	"most innovative", "most convenient", "most reliable", "most proven", "most studied", "most recommended",
	"the only", "first and only", "only approved", "only fda approved", "only treatment", "only medicine", "only medication", "only therapy",
	"#1", "# 1", "no. 1", "number one", "number 1",
	"guaranteed", "guarantee", "guarantees", "guaranteeing",
	"cure", "cures", "cured", "curing", "curative",
	"100%", "100 percent", "100 per cent",
	"no side effects", "no side effect", "without side effects", "without any side effects", "free of side effects",
	"free from side effects", "side effect free", "zero side effects", "no adverse effects", "no risks", "no risk",
	"risk free", "completely safe", "totally safe", "perfectly safe", "absolutely safe", "entirely safe", "100% safe",
	"harmless", "completely harmless", "revolutionary", "revolutionise", "revolutionize", "revolutionizes", "revolutionises",
	"breakthrough", "breakthroughs", "game changer", "game changing", "gamechanger", "game changers",
	"miracle", "miracles", "miraculous", "unmatched", "unparalleled", "unrivaled", "unrivalled", "unsurpassed",
	"unbeatable", "unbeaten", "second to none", "never fails", "works for everyone", "works every time",
	"gold standard", "the ultimate", "ultimate", "perfect", "flawless", "foolproof",
	"forever", "permanently", "once and for all", "never again", "instantly", "best in class",
	"for good", "every patient", "every single patient", "every time", "ever need", "ever needs", "ever made",
	"easiest", "gentlest", "simplest", "quickest", "smartest", "cleanest", "clearest", "healthiest", "smoothest",
	"mildest", "softest", "longest lasting", "longest acting", "thing of the past", "total control", "complete control",
	"complete protection", "total protection", "absolutely no", "zero", "first in class", "first of its kind",
	"nausea free", "vomiting free", "pain free", "itch free", "flare free", "attack free", "fracture free", "symptom free",
	"worry free", "never", "top rated", "top ranked", "highest rated", "leading", "definitive", "unrivalled", "gone for good",
	"nothing compares", "in a class of its own", "in a league of its own", "like no other",
}

// Comparative phrases; "than" is handled on its own (any comparative
// adjective before it).
var comparativePhrases = []string{
	"superior to", "superior", "superiority", "outperforms", "outperformed", "outperform", "outperforming",
	"vs", "vs.", "versus", "compared with", "compared to", "comparison with", "comparison to", "in comparison",
	"head to head", "non inferior", "noninferior", "non inferiority", "noninferiority",
	"as effective as", "as good as", "as safe as", "as well tolerated as", "twice as", "times more", "times as",
	"beats", "compare", "outshines", "outshone", "advantage over", "advantages over", "edge over",
	"do better", "does better", "did better", "can do better", "out performs", "out performed", "out perform", "out performing",
	"outdoes", "outdid", "wins head to head", "won head to head", "head to head win", "trumps", "outclasses", "outclassed", "works as well as", "work as well as", "worked as well as", "unlike", "over placebo", "relative to", "in contrast to", "than placebo",
}

// Efficacy and safety statement triggers (percentages are found on their
// own).
var unsubstantiatedPhrases = []string{
	"reduce", "reduces", "reduced", "reducing", "reduction", "reductions",
	"improve", "improves", "improved", "improving", "improvement", "improvements",
	"lowers", "lowered", "lowering", "decrease", "decreases", "decreased", "decreasing",
	"prevents", "prevented", "preventing", "prevention of", "relieves", "relieved", "relief",
	"demonstrated", "demonstrates", "proven", "clinically proven", "clinically shown", "shown to",
	"has been shown", "have been shown", "were shown", "was shown", "studies show", "studies have shown", "data show", "research shows",
	"effective", "highly effective", "well tolerated", "safe and effective", "safe and well tolerated",
	"protects", "protection against", "fewer", "increases", "increased", "significantly", "statistically significant",
	"helps", "can help", "may help", "help", "percent", "per cent", "%",
	"works in", "starts working", "fast acting", "long lasting", "all day", "24 hour", "around the clock",
	"achieved", "achieve", "achieves", "remission", "response rate", "response rates",
	"symptom free", "in as little as", "as early as", "sustained", "results in", "resulted in",
	"led to", "cut", "cuts", "halved", "halves", "slashed", "slashes", "slashing", "boosts", "restores", "controls", "eliminates", "stops",
	"dropped", "fell", "by half", "in half", "lower", "out of", "in 2",
	"guaranteed", "guarantee", "guarantees", "cure", "cures", "cured", "no side effects", "without side effects",
	"side effect free", "works for everyone", "every patient", "every time", "forever", "for good", "thing of the past",
	"nausea free", "vomiting free", "pain free", "itch free", "flare free", "attack free", "fracture free", "zero",
	"protection", "protect", "protecting", "control", "controlled", "works", "work", "cleared", "clears", "slowed",
	"slows", "drop", "safe for", "safe to", "is safe", "are safe", "completely safe", "calm", "calms", "soothes",
	"soothe", "eases", "ease", "gone", "tolerated", "less", "within", "stayed low", "remained low", "stays low",
	"increasing", "reached", "mean change", "change from baseline", "mmhg", "mg/dl", "up", "down", "no",
	"never", "in 3", "in 4", "in 5", "in 10", "in 100", "in 1000", "in 1,000",
}

// The words "help" must be followed by to be a claim ("helps reduce").
var helpObjects = setOf("reduce", "lower", "prevent", "control", "improve", "relieve", "protect", "manage",
	"keep", "you", "patients", "people", "maintain", "restore", "stop", "fight", "ease", "clear", "heal",
	"your", "teens", "children", "adults", "kids", "make", "get", "reach", "lose", "build", "strengthen",
	"breathe", "slow", "decrease", "lessen", "minimize", "minimise", "boost", "increase", "support")

// offLabelGroups: each group is a population or condition; the terms of a
// group are its synonyms. A term is off-label when no term of its group
// (nor of a wider group named in covers) appears in the indications.
type offLabelGroup struct {
	name   string
	terms  []string
	covers []string // other groups whose presence in the indications allows this one
	// requires makes the group a use modifier that only contradicts a
	// label naming one of these words: "prevention" contradicts a label
	// for acute treatment, "without a statin" one for use with a statin.
	requires []string
	// allow are further indication words that put the group on label.
	allow []string
	// symptoms and endpoints belong to the condition: when the group is on
	// label, "pain" and "nausea" of a migraine product are too.
	symptoms []string
}

var offLabelVocabulary = []offLabelGroup{
	{name: "pediatric", terms: []string{"pediatric", "paediatric", "children", "child", "childhood", "kids", "kid", "school age", "young children"}},
	{name: "adolescent", terms: []string{"adolescent", "adolescents", "teens", "teen", "teenagers", "teenager", "teenage", "young people"}, covers: []string{"pediatric"}},
	{name: "infant", terms: []string{"infant", "infants", "newborn", "newborns", "neonate", "neonates", "neonatal", "babies", "baby", "toddler", "toddlers"}},
	{name: "pregnancy", terms: []string{"pregnant", "pregnancy", "pregnancies", "expectant mothers", "expecting mothers", "mothers to be", "during pregnancy"}},
	{name: "lactation", terms: []string{"breastfeeding", "breast feeding", "nursing mothers", "lactating", "lactation"}},
	{name: "elderly", terms: []string{"elderly", "seniors", "senior citizens", "geriatric", "older adults", "older patients"}, covers: []string{"adult"}},
	{name: "adult", terms: []string{"adults", "adult"}},
	{name: "childbearing", terms: []string{"childbearing", "child bearing"}, covers: []string{"pregnancy"}},
	{name: "premenopausal", terms: []string{"premenopausal", "perimenopausal", "pre menopausal", "still having periods"}},
	{name: "asthma", terms: []string{"asthma", "asthmatic", "asthmatics"}, symptoms: []string{"wheeze", "wheezing", "cough", "breathlessness", "attacks", "attack", "exacerbations", "exacerbation"}},
	{name: "copd", terms: []string{"copd", "chronic obstructive pulmonary disease", "emphysema", "chronic bronchitis"}},
	{name: "hypertension", terms: []string{"hypertension", "high blood pressure"}},
	{name: "heart failure", terms: []string{"heart failure", "cardiac failure"}},
	{name: "hyperlipidemia", terms: []string{"hyperlipidemia", "hyperlipidaemia", "high cholesterol", "hypercholesterolemia", "hypercholesterolaemia", "dyslipidemia", "dyslipidaemia"}},
	{name: "myocardial infarction", terms: []string{"heart attack", "heart attacks", "myocardial infarction"}},
	{name: "stroke", terms: []string{"stroke", "strokes"}},
	{name: "ascvd", terms: []string{"atherosclerotic cardiovascular disease", "ascvd", "heart disease", "coronary heart disease",
		"coronary artery disease", "cardiovascular disease", "narrowed arteries", "clogged arteries", "hardening of the arteries",
		"atherosclerosis", "peripheral artery disease", "peripheral arterial disease"}},
	{name: "hdl", terms: []string{"raise hdl", "raises hdl", "raising hdl", "raised hdl", "increase hdl", "increases hdl",
		"increasing hdl", "boost hdl", "boosts hdl", "low hdl", "hdl raising"}, allow: []string{"hdl"}},
	{name: "triglycerides", terms: []string{"triglycerides", "triglyceride", "hypertriglyceridemia", "hypertriglyceridaemia"}},
	{name: "prevention", terms: []string{"preventive", "preventative", "prevention", "prophylaxis", "prophylactic",
		"prevent", "prevents", "preventing"}, requires: []string{"acute"}},
	{name: "statin free", terms: []string{"statin intolerant", "statin intolerance", "intolerant to statins", "intolerant of statins",
		"cannot take a statin", "can't take a statin", "cannot take statins", "can't take statins", "without a statin",
		"no statin", "instead of a statin", "instead of statins", "statin free", "in place of a statin"},
		requires: []string{"statin"}, allow: []string{"intolerant", "intolerance", "unable to take"}},
	{name: "bph", terms: []string{"benign prostatic hyperplasia", "bph", "enlarged prostate", "prostate enlargement",
		"lower urinary tract symptoms", "luts", "prostatectomy", "prostate surgery"}},
	{name: "nocturia", terms: []string{"nocturia", "nocturnal enuresis", "bedwetting", "bed wetting", "night time urination"}},
	{name: "atrial fibrillation", terms: []string{"atrial fibrillation", "afib", "a fib"}},
	{name: "diabetes", terms: []string{"diabetes", "diabetic", "diabetics"}},
	{name: "type 1 diabetes", terms: []string{"type 1 diabetes", "type i diabetes"}, covers: []string{}},
	{name: "type 2 diabetes", terms: []string{"type 2 diabetes", "type ii diabetes"}},
	{name: "obesity", terms: []string{"obesity", "obese", "weight loss", "lose weight", "weight management", "overweight"}},
	{name: "migraine", terms: []string{"migraine", "migraines"}, symptoms: []string{"pain", "headache", "headaches", "nausea",
		"vomiting", "photophobia", "phonophobia", "aura", "attack", "attacks", "pain free", "pain freedom"}},
	{name: "depression", terms: []string{"depression", "major depressive disorder", "depressive"}},
	{name: "anxiety", terms: []string{"anxiety", "generalized anxiety disorder", "panic disorder"}},
	{name: "insomnia", terms: []string{"insomnia", "sleep disorder", "sleep disorders"}},
	{name: "schizophrenia", terms: []string{"schizophrenia"}},
	{name: "bipolar", terms: []string{"bipolar disorder", "bipolar"}},
	{name: "adhd", terms: []string{"adhd", "attention deficit"}},
	{name: "alzheimer", terms: []string{"alzheimer's", "alzheimers", "alzheimer's disease", "dementia"}},
	{name: "parkinson", terms: []string{"parkinson's", "parkinsons", "parkinson's disease"}},
	{name: "epilepsy", terms: []string{"epilepsy", "seizures", "seizure disorder"}},
	{name: "multiple sclerosis", terms: []string{"multiple sclerosis"}},
	{name: "rheumatoid arthritis", terms: []string{"rheumatoid arthritis"}, symptoms: []string{"pain", "stiffness", "swelling", "flares"}},
	{name: "osteoarthritis", terms: []string{"osteoarthritis"}, symptoms: []string{"pain", "stiffness", "swelling"}},
	{name: "psoriatic arthritis", terms: []string{"psoriatic arthritis"}},
	{name: "psoriasis", terms: []string{"psoriasis", "plaque psoriasis"}},
	{name: "atopic dermatitis", terms: []string{"atopic dermatitis", "eczema"}, symptoms: []string{"itch", "itching", "pruritus", "rash", "redness", "flares", "flare"}},
	{name: "acne", terms: []string{"acne"}},
	{name: "rosacea", terms: []string{"rosacea"}},
	{name: "crohn", terms: []string{"crohn's disease", "crohn's", "crohns"}},
	{name: "ulcerative colitis", terms: []string{"ulcerative colitis"}},
	{name: "ibs", terms: []string{"irritable bowel syndrome", "ibs"}},
	{name: "gerd", terms: []string{"gerd", "acid reflux", "heartburn", "gastroesophageal reflux"}, symptoms: []string{"heartburn", "regurgitation"}},
	{name: "osteoporosis", terms: []string{"osteoporosis"}},
	{name: "ckd", terms: []string{"chronic kidney disease", "kidney disease", "ckd"}},
	{name: "lupus", terms: []string{"lupus"}},
	{name: "gout", terms: []string{"gout"}, symptoms: []string{"pain", "flare", "flares", "swelling", "inflammation", "tenderness", "redness"}},
	{name: "allergic rhinitis", terms: []string{"allergic rhinitis", "hay fever", "seasonal allergies"}, symptoms: []string{"sneezing", "congestion", "runny nose", "itchy eyes"}},
	{name: "sinusitis", terms: []string{"sinusitis", "nasal polyps"}},
	{name: "covid", terms: []string{"covid 19", "covid", "coronavirus", "sars cov 2"}},
	{name: "influenza", terms: []string{"influenza", "flu"}},
	{name: "hiv", terms: []string{"hiv"}},
	{name: "hepatitis", terms: []string{"hepatitis", "hepatitis b", "hepatitis c"}},
	{name: "cancer", terms: []string{"cancer", "cancers", "tumor", "tumors", "tumour", "tumours", "oncology", "carcinoma", "lymphoma", "leukemia", "leukaemia", "melanoma"}},
	{name: "chronic pain", terms: []string{"chronic pain", "fibromyalgia", "neuropathic pain", "back pain", "arthritis pain"}},
	{name: "erectile dysfunction", terms: []string{"erectile dysfunction"}},
	{name: "overactive bladder", terms: []string{"overactive bladder", "oab"}, symptoms: []string{"urgency", "frequency", "leakage",
		"leaks", "leaking", "accidents", "incontinence", "wetting"}},
	{name: "anemia", terms: []string{"anemia", "anaemia"}},
	{name: "endometriosis", terms: []string{"endometriosis"}},
	{name: "smoking cessation", terms: []string{"smoking cessation", "quit smoking", "stop smoking"}},
	{name: "pneumonia", terms: []string{"pneumonia"}},
	{name: "cystic fibrosis", terms: []string{"cystic fibrosis"}},
	{name: "sickle cell", terms: []string{"sickle cell"}},
	{name: "hemophilia", terms: []string{"hemophilia", "haemophilia"}},
}

// socialLimits are the post lengths (code points) of the channels named
// in an asset's channel field.
var socialLimits = map[string]int{
	"twitter": 280, "x": 280, "x (twitter)": 280, "twitter/x": 280, "x/twitter": 280,
	"threads": 500, "bluesky": 300, "instagram": 2200, "tiktok": 2200, "linkedin": 3000,
	"facebook": 63206, "sms": 160, "text message": 160, "mastodon": 500, "pinterest": 500,
	"youtube": 5000,
}

// promotionalTypes are the content model's asset types that promote a
// product (fair-balance and pi-reference apply to them).
var promotionalTypes = setOf("email", "web_page", "detail_aid", "social_post", "banner", "print", "video_script")

// conditionWords name a disease, a symptom or a population when no
// vocabulary group knows them; conditionSuffixes find the rest by their
// ending (dermatitis, osteopenia, bronchiectasis). The off-label rule reads
// the phrase around such a word ("seborrhoeic dermatitis", "radiation-
// induced nausea", "severe atopic dermatitis") against the indications.
var conditionWords = setOf("disease", "diseases", "disorder", "disorders", "syndrome", "cancer", "cancers", "tumor",
	"tumors", "tumour", "tumours", "metastases", "metastasis", "failure", "sickness", "nausea", "vomiting", "sores",
	"rash", "infection", "infections", "pain", "apnea", "apnoea", "insufficiency", "deficiency", "dysfunction",
	"phenomenon", "gravidarum", "hyperemesis", "prediabetes", "diabetes", "obesity", "allergy", "allergies", "acne",
	"eczema", "asthma", "copd", "migraine", "migraines", "depression", "anxiety", "insomnia", "dementia", "epilepsy",
	"seizures", "emetogenic", "planus", "lichen", "hypogonadism", "hypothyroidism", "hyperthyroidism", "glaucoma",
	"colic", "flu", "influenza", "covid", "hiv", "hepatitis", "gout", "lupus", "rosacea", "warts", "scabies", "herpes",
	"shingles", "melanoma", "lymphoma", "leukemia", "leukaemia", "carcinoma", "sarcoma", "myeloma", "stroke",
	"fibrillation", "angina", "neuropathy", "retinopathy", "nephropathy", "cirrhosis", "hives", "urticaria", "dandruff",
	"headache", "headaches", "incontinence", "hyperplasia", "dysplasia", "nocturia", "leakage")

var conditionSuffixes = []string{"itis", "osis", "emia", "aemia", "algia", "ectasis", "spasm", "penia", "paresis", "plegia", "iasis", "igo", "uria", "pathy"}

// notConditions end like a condition but are not one.
var notConditions = setOf("diagnosis", "prognosis", "diagnoses", "prognoses", "academia", "nostalgia", "indigo",
	"amigo", "prodigo", "osmosis", "hypnosis", "emphasis")

// conditionStop are the words a condition phrase does not reach past:
// function words, verbs of treating, people.
var conditionStop = setOf("for", "in", "with", "without", "of", "and", "or", "to", "the", "a", "an", "from", "by",
	"on", "at", "as", "caused", "cause", "causes", "manage", "managing", "control", "prevent", "prevents", "prevention",
	"reduce", "reduces", "relieve", "relief", "use", "used", "using", "is", "are", "was", "were", "be", "been", "also",
	"can", "may", "will", "your", "their", "his", "her", "its", "our", "my", "against", "about", "including", "like",
	"such", "patients", "patient", "people", "adults", "adult", "women", "men", "who", "that", "which", "have", "has",
	"had", "any", "all", "some", "more", "less", "most", "other", "treat", "treats", "treatment", "treating", "therapy",
	"this", "these", "those", "it", "you", "we", "they", "not", "no", "help", "helps", "clear", "up", "into", "onto",
	"off", "after", "before", "during", "while", "when", "if", "but", "so", "than", "then", "just", "only", "very",
	"living", "diagnosed", "suffering", "affected", "associated", "due", "because", "symptoms", "signs", "risk",
	"free", "last", "stop", "stops", "end", "fight", "beat", "tackle", "ease", "calm", "soothe", "cure", "heal",
	"target", "targets", "first", "world", "day", "awareness", "month", "week", "new")

// conditionGeneric words may sit in a condition phrase without narrowing
// it beyond the label.
var conditionGeneric = setOf("different", "many", "common", "serious", "certain", "various", "similar", "same", "own",
	"main", "major", "possible", "real", "underlying", "existing", "related", "type", "form", "forms", "people's",
	"breakthrough", "facial", "face", "body", "skin", "hand", "hands", "arm", "arms", "leg", "legs", "knee", "knees",
	"elbow", "elbows", "foot", "feet", "neck", "trunk", "hour", "hours", "minute", "minutes", "mean", "daily", "weekly", "monthly", "average", "joint", "joints")
