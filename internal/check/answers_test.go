package check

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseAnswers(t *testing.T) {
	qs := map[int]string{
		1: "Does the judge stay neutral?",
		2: "Does the witness answer: yes or no?",
		3: "Is the verdict clear?",
	}
	tests := []struct {
		name  string
		reply string
		qs    map[int]string
		want  map[int]Answer
	}{
		{"spec format", "Q1 - Does the judge stay neutral?: yes (reasoning: [T3] only directs.)\nQ3 - Is the verdict clear?: no (reasoning: no verdict.)",
			qs, map[int]Answer{1: {1, Yes, "[T3] only directs."}, 3: {3, No, "no verdict."}}},
		{"short form", "Q1: yes\nQ3: NO", qs, map[int]Answer{1: {1, Yes, ""}, 3: {3, No, ""}}},
		{"any case and markdown", "**Q1** - Does the judge stay neutral?: **YES** (reasoning: fine)\n- q3: No.",
			qs, map[int]Answer{1: {1, Yes, "fine"}, 3: {3, No, ""}}},
		{"justification after a dash", "Q1: yes - the judge only rules on objections\nQ3: no – nobody states an outcome",
			qs, map[int]Answer{1: {1, Yes, "the judge only rules on objections"}, 3: {3, No, "nobody states an outcome"}}},
		{"question containing answer words", "Q2 - Does the witness answer: yes or no?: no (reasoning: she asks back)",
			qs, map[int]Answer{2: {2, No, "she asks back"}}},
		{"yes in the reasoning of a no", "Q1 - Did the judge stay neutral? no (reasoning: yes he did)",
			qs, map[int]Answer{1: {1, No, "yes he did"}}},
		{"echo with other punctuation", "Q2 - does the witness answer yes or no: yes (reasoning: she answers)",
			qs, map[int]Answer{2: {2, Yes, "she answers"}}},
		{"Italian, Spanish, French and German", "Q1: Sì (ragione)\nQ2: sí\nQ3: oui", qs,
			map[int]Answer{1: {1, Yes, "ragione"}, 2: {2, Yes, ""}, 3: {3, Yes, ""}}},
		{"non and nein", "Q1: non, il giudice commenta\nQ3: Nein", qs,
			map[int]Answer{1: {1, No, "il giudice commenta"}, 3: {3, No, ""}}},
		{"ja and si", "Q1 - ja\nQ3 = si", qs, map[int]Answer{1: {1, Yes, ""}, 3: {3, Yes, ""}}},
		{"json array", `[{"q": 1, "answer": "yes", "reason": "neutral"}, {"q": "Q3", "answer": "No", "reason": "none"}]`,
			qs, map[int]Answer{1: {1, Yes, "neutral"}, 3: {3, No, "none"}}},
		{"json in a fence with prose", "Here you go:\n```json\n{\"answers\": [{\"q\": 2, \"answer\": true}]}\n```", qs,
			map[int]Answer{2: {2, Yes, ""}}},
		{"answer on the next line", "Q1 - Does the judge stay neutral?\nAnswer: yes (reasoning: it does)", qs,
			map[int]Answer{1: {1, Yes, "it does"}}},
		{"reasoning over several lines", "Q1: yes (reasoning: the judge\nonly gives the floor)\nQ3: no", qs,
			map[int]Answer{1: {1, Yes, "the judge only gives the floor"}, 3: {3, No, ""}}},
		{"Question n label", "Question 3: no (reasoning: stops early)", qs, map[int]Answer{3: {3, No, "stops early"}}},
		{"unasked numbers ignored", "Q1: yes\nQ7: no", qs, map[int]Answer{1: {1, Yes, ""}}},
		{"nil questions accept any number", "Q7: no", nil, map[int]Answer{7: {7, No, ""}}},
		{"first answer wins", "Q1: yes\nQ1: no", qs, map[int]Answer{1: {1, Yes, ""}}},
		{"no answer word is missing, not no", "Q1: maybe\nQ3: the verdict is unclear", qs, map[int]Answer{}},
		{"words that start like no are not no", "Q1: nonsense\nQ3: not really", qs, map[int]Answer{}},
		{"non-sequitur is not non", "Q1: non-sequitur in T4", qs, map[int]Answer{}},
		{"numbered list without labels", "1. yes (neutral)\n3. no", qs, map[int]Answer{1: {1, Yes, "neutral"}, 3: {3, No, ""}}},
		{"empty reply", "", qs, map[int]Answer{}},
		{"echoed question starting with an answer word", "Q4 - No witness questions the lawyer?: yes (reasoning: none does)",
			map[int]string{4: "No witness questions the lawyer?"}, map[int]Answer{4: {4, Yes, "none does"}}},
		{"Chinese answers with full-width colons", "Q1：是\nQ2：否（理由：证人反问律师。）\nQ3： 是的，见[T4]", qs,
			map[int]Answer{1: {1, Yes, ""}, 2: {2, No, "证人反问律师。"}, 3: {3, Yes, "见[T4]"}}},
		{"Chinese and English lines mixed", "Q1: yes\nQ2：不是（推理：法官评论了被告）\n问题3：是", qs,
			map[int]Answer{1: {1, Yes, ""}, 2: {2, No, "法官评论了被告"}, 3: {3, Yes, ""}}},
		{"是否 is not an answer", "Q1：是否中立不清楚\nQ3：否则", qs, map[int]Answer{}},
		{"echoed question then a full-width colon", "Q3 - Is the verdict clear?：否", qs, map[int]Answer{3: {3, No, ""}}},
		{"Chinese reasoning over several lines", "Q1：是（理由：法官\n只主持程序）\nQ3：否", qs,
			map[int]Answer{1: {1, Yes, "法官 只主持程序"}, 3: {3, No, ""}}},
		{"json with Chinese answers", `[{"q": 1, "answer": "是"}, {"q": 3, "answer": "否", "reason": "无"}]`, qs,
			map[int]Answer{1: {1, Yes, ""}, 3: {3, No, "无"}}},
		{"list numbers before labels are not question numbers", "1. Q2 - Does the witness answer: yes or no?: yes\n2) **Q3**: no",
			qs, map[int]Answer{2: {2, Yes, ""}, 3: {3, No, ""}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ParseAnswers(tc.reply, tc.qs)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseAnswers(%q) = %v; want %v", tc.reply, got, tc.want)
			}
		})
	}
}

func FuzzParseAnswers(f *testing.F) {
	for _, s := range []string{
		"Q1 - Does the judge stay neutral?: yes (reasoning: [T3])",
		"Q2: no - because\nQ3: sì",
		`[{"q": 1, "answer": "yes", "reason": "x"}]`,
		"```json\n{\"answers\": [{\"q\": \"Q4\", \"answer\": false}]}\n```",
		"Q1\nAnswer: nein (reasoning: open",
		"1. yes\n2) no",
		"**Q12** — ¿Sí?: SÍ",
		"Q1：是（理由：见[T2]）\nQ2：否\n问题3：不是（推理：",
	} {
		f.Add(s)
	}
	qs := map[int]string{1: "Does the judge stay neutral?", 2: "Is it: yes?", 3: "x", 4: "y", 12: "z"}
	f.Fuzz(func(t *testing.T, reply string) {
		for _, questions := range []map[int]string{nil, qs} {
			got := ParseAnswers(reply, questions)
			again := ParseAnswers(reply, questions)
			if !reflect.DeepEqual(got, again) {
				t.Fatalf("ParseAnswers(%q) is not deterministic", reply)
			}
			for q, a := range got {
				if q <= 0 || a.Q != q {
					t.Errorf("ParseAnswers(%q): answer %+v filed under %d", reply, a, q)
				}
				if a.Verdict != Yes && a.Verdict != No {
					t.Errorf("ParseAnswers(%q): Q%d verdict %v", reply, q, a.Verdict)
				}
				if questions != nil {
					if _, asked := questions[q]; !asked {
						t.Errorf("ParseAnswers(%q): Q%d was not asked", reply, q)
					}
				}
				if utf8.ValidString(reply) && !utf8.ValidString(a.Reason) {
					t.Errorf("ParseAnswers(%q): reason %q is not UTF-8", reply, a.Reason)
				}
				if len(a.Reason) > maxReason+len("…") || strings.Contains(a.Reason, "\n") {
					t.Errorf("ParseAnswers(%q): reason %q too long or multi-line", reply, a.Reason)
				}
			}
		}
	})
}
