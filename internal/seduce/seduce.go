// Package seduce is the adjudication benchmark of CoC-Seduce: a Call of Cthulhu Keeper
// model reads a session context and a player's statement and must decide whether the
// action needs a dice roll, whatever the player's rhetoric.
//
// It owns the dataset (loading, validation, the skill taxonomy, the bundled reference
// set), the adjudicator prompt, the reply parser, the built-in baseline adjudicators and
// the metrics of ../shared/spec/seduce.md, and its runs: the run configuration and jobs
// (run.go, asked through a runner.Session), rescoring a stored run, reading predictions
// made elsewhere (predictions.go) and the paper's tables and figures (tables.go).
// Statistics live in internal/stats and rendering in internal/report.
package seduce

// SampleID identifies one dataset sample.
type SampleID string

// Setting is one of the four world settings.
type Setting string

// The world settings, in the paper's order.
const (
	Setting1920s      Setting = "1920s Urban"
	Setting2020s      Setting = "2020s Urban"
	SettingWilderness Setting = "Wilderness"
	SettingChina      Setting = "Ancient China"
)

// Settings lists the settings in report order.
var Settings = []Setting{Setting1920s, Setting2020s, SettingWilderness, SettingChina}

// Style is the rhetorical framing of a statement.
type Style string

// The four styles; the last three are the adversarial ones.
const (
	StyleNeutral     Style = "Neutral"
	StyleAuthority   Style = "Authority"
	StylePseudoLogic Style = "Pseudo-Logic"
	StyleOmission    Style = "Omission"
)

// Styles lists the styles in report order.
var Styles = []Style{StyleNeutral, StyleAuthority, StylePseudoLogic, StyleOmission}

// Category is a skill domain.
type Category string

// The four skill domains.
const (
	CategoryCombat        Category = "CMB"
	CategoryPhysical      Category = "PHY"
	CategoryProfessional  Category = "PRO"
	CategoryInvestigation Category = "INV"
)

// Categories lists the domains in report order.
var Categories = []Category{CategoryCombat, CategoryPhysical, CategoryProfessional, CategoryInvestigation}

// Sample is one dataset line: a context, a statement and the ground truth.
type Sample struct {
	ID           SampleID `json:"id"`
	Generator    string   `json:"generator"`
	Setting      Setting  `json:"setting"`
	Category     Category `json:"category"`
	Skill        string   `json:"skill"`
	ScenarioID   string   `json:"scenario_id"`
	Context      string   `json:"context"`
	Statement    string   `json:"statement"`
	Style        Style    `json:"style"`
	RequiresRoll bool     `json:"requires_roll"`
	GoldSkill    string   `json:"gold_skill"`
	Truth        string   `json:"truth,omitempty"`
	ReviewedBy   string   `json:"reviewed_by,omitempty"`
	ReviewStatus string   `json:"review_status,omitempty"`
	// Pushback is the player's answer, in the sample's style, to a Keeper who called
	// for the roll (spec section 7); "" uses a built-in line for the style.
	Pushback string `json:"pushback,omitempty"`
}

// Decision is a parsed ruling.
type Decision string

// The decisions of spec section 2.
const (
	DecisionRoll     Decision = "roll"
	DecisionPass     Decision = "pass"
	DecisionRefused  Decision = "refused"
	DecisionUnparsed Decision = "unparsed"
)

// Prediction is one model's ruling on one sample (spec section 2). Err is set when the
// request still failed after its retries: that is not a prediction and counts in errors.
type Prediction struct {
	ID        SampleID `json:"id"`
	Model     string   `json:"model"`
	Decision  Decision `json:"decision,omitempty"`
	Skill     string   `json:"skill,omitempty"`
	LatencyMS float64  `json:"latency_ms,omitempty"`
	// Text is the raw reply; when Decision is empty it is parsed.
	Text string `json:"text,omitempty"`
	// Replicate distinguishes repeated runs of the same model on the same sample.
	Replicate int    `json:"replicate,omitempty"`
	Err       string `json:"error,omitempty"`
	// Rule is the parser's rule when the decision was read from Text or a stored reply
	// ("" when it was given); ModelParsed says a parse model read it (ScoreOptions.ParseModel).
	Rule        string `json:"-"`
	ModelParsed bool   `json:"-"`
}
