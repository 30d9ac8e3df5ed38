package compliance

import (
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// threadCPU returns the CPU time of the calling OS thread (the benchmark
// loop is locked to it).
func threadCPU() time.Duration {
	runtime.LockOSThread()
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchCopy is realistic promotional copy: HCP and patient e-mail, web and
// detail-aid paragraphs, references, ISI and footers.
var benchCopy = []string{
	"Dear Dr. Patel,\n\nZelvora® (velorimab) is the first and only biologic approved for severe eosinophilic asthma with once-monthly dosing. In the 52-week VELO-1 trial, Zelvora reduced annual exacerbations by 51% compared with placebo.¹",
	"Patients treated with Zelvora experienced improved lung function (FEV₁) from week 4, with a mean improvement of 150 mL versus placebo [2,3]. Most patients self-administered at home after training.",
	"Ask your doctor if Zelvora is right for you. Zelvora is not a rescue medicine and is not for sudden breathing problems. Rinse your mouth with water after each dose to help reduce the risk of thrush.",
	"New data presented at the annual congress show fewer hospital visits than in the pre-study year. No other biologic has been shown to cut oral steroid use this quickly.† Breathe easier — it’s a game-changer for many of your patients.",
	"IMPORTANT SAFETY INFORMATION\nDo not use Zelvora if you are allergic to velorimab or any of its ingredients. Zelvora can cause serious allergic reactions, including anaphylaxis. Tell your doctor if you are pregnant or plan to become pregnant. The most common side effects include headache (12%) and injection site reactions (8%).",
	"Please see full Prescribing Information, including Patient Information, at www.zelvora.com/pi. Zelvora and the Zelvora logo are registered trademarks. © 2026 Fairbalance Pharma. FB-US-0042 11/26",
	"Starting Zelvora is simple: one injection every four weeks. Our nurse educators can help you with your first dose, and the savings card may help you pay as little as $5 per month. Save 20% on refills.",
	"In a real-world study of 1,204 adults, 72% reported better symptom control after 6 months, and patients were more likely to stay on therapy than with other biologics. Results may vary.",
	"Meet the new Zelvora autoinjector pen: it works faster than omalizumab, and patients describe instant relief and total control.",
}

func benchText(size int) string {
	var sb strings.Builder
	page := 1
	sb.WriteString("Zelvora (velorimab) | Severe asthma detail aid\n\n")
	for i := 0; sb.Len() < size; i++ {
		sb.WriteString(benchCopy[i%len(benchCopy)])
		if i%7 == 6 {
			page++
			fmt.Fprintf(&sb, "\nFB-US-0042 · Page %d\f", page-1)
			sb.WriteString("Zelvora (velorimab) | Severe asthma detail aid\n\n")
		} else {
			sb.WriteString("\n\n")
		}
	}
	return sb.String()
}

// orgPhrases returns n distinct organisation phrases of the kind
// companies ban: adjective + noun pairs and short slogans.
func orgPhrases(n int) []string {
	adj := []string{"amazing", "incredible", "wonder", "magic", "ultimate", "instant", "total", "life-changing", "clinically tested", "doctor recommended", "natural", "powerful", "gentle", "rapid", "lasting", "complete", "proven", "trusted", "advanced", "smart", "easy", "simple", "fast", "strong", "safe", "pure", "fresh", "better", "extra", "super", "mega", "ultra"}
	noun := []string{"relief", "cure", "drug", "remedy", "results", "protection", "solution", "therapy", "formula", "breakthrough", "option", "choice", "care", "control", "defense", "shield", "support", "answer", "fix", "power", "effect", "benefit", "comfort", "healing", "recovery", "response", "performance", "strength", "balance", "freedom", "confidence", "energy"}
	out := make([]string, 0, n)
	for i := 0; len(out) < n; i++ {
		out = append(out, adj[i%len(adj)]+" "+noun[(i/len(adj))%len(noun)])
	}
	return out
}

func BenchmarkCheck1MB(b *testing.B) {
	text := benchText(1 << 20)
	e, err := Compile(Config{Rules: []Rule{{Code: "banned-phrases", Version: 1, Kind: "phrases", Phrases: orgPhrases(1000), Severity: Warning, Message: "Banned phrase."}}})
	if err != nil {
		b.Fatal(err)
	}
	doc := Document{Text: text}
	ctx := Context{Product: zelvora, AssetType: "detail_aid", Audience: "hcp", Channel: "Field force", Market: "US", AsOf: asOf}
	fs := e.Check(doc, ctx)
	if len(fs) == 0 {
		b.Fatal("no findings")
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := threadCPU()
	for i := 0; i < b.N; i++ {
		e.Check(doc, ctx)
	}
	// On a shared machine wall time counts other processes' turns too;
	// the CPU time this thread spent gives the throughput of one core.
	if cpu := threadCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(len(text))*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
	}
	b.ReportMetric(float64(len(fs)), "findings")
}

func BenchmarkCompile1000Phrases(b *testing.B) {
	cfg := Config{Rules: []Rule{{Code: "banned-phrases", Version: 1, Kind: "phrases", Phrases: orgPhrases(1000), Severity: Warning, Message: "Banned phrase."}}}
	for i := 0; i < b.N; i++ {
		if _, err := Compile(cfg); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBenchCorpusFindings(t *testing.T) {
	// The benchmark's copy must exercise the rules it claims to measure.
	e := mustCompile(t, Config{Rules: []Rule{{Code: "banned-phrases", Version: 1, Kind: "phrases", Phrases: orgPhrases(1000), Severity: Warning, Message: "Banned phrase."}}})
	fs := e.Check(Document{Text: benchText(20000)}, Context{Product: zelvora, AssetType: "detail_aid", AsOf: asOf})
	seen := map[string]int{}
	for _, f := range fs {
		seen[f.Rule]++
	}
	for _, r := range []string{RuleSuperlative, RuleComparative, RuleUnsubstantiated, RuleNewClaim, "banned-phrases"} {
		if seen[r] == 0 {
			t.Errorf("no %s finding in the benchmark copy: %v", r, seen)
		}
	}
}

func BenchmarkNormalize1MB(b *testing.B) {
	text := benchText(1 << 20)
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		normalize(text, true)
	}
}

func BenchmarkAutomaton1MB(b *testing.B) {
	text := benchText(1 << 20)
	e := mustCompile(b, Config{Rules: []Rule{{Code: "banned-phrases", Version: 1, Kind: "phrases", Phrases: orgPhrases(1000), Severity: Warning, Message: "Banned phrase."}}})
	n := normalize(text, true)
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		e.ac.FindAllOverlapping(n.b)
	}
}
