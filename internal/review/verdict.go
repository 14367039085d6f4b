package review

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Verdict is a reviewer's answer: {"status":"pass"|"fail","findings":[...]}.
type Verdict struct {
	Status   string    `json:"status"`
	Findings []Finding `json:"findings"`
}

// Finding is one problem the reviewer names.
type Finding struct {
	File     string     `json:"file"`
	Line     lineNumber `json:"line"`
	Severity string     `json:"severity"`
	Message  string     `json:"message"`
}

// lineNumber accepts 12 and "12": models write both.
type lineNumber int

func (n *lineNumber) UnmarshalJSON(data []byte) error {
	text := strings.Trim(string(data), `"`)
	if text == "" || text == "null" {
		*n = 0
		return nil
	}
	v, err := strconv.Atoi(text)
	if err != nil {
		// Not a line number ("n/a", 12.5): the finding is not on an added line, which is
		// decided later; it must not make the whole verdict unreadable.
		*n = 0
		return nil
	}
	*n = lineNumber(v)
	return nil
}

// decode is json.Unmarshal; a test counts what it is given.
var decode = json.Unmarshal

// parseVerdict reads one JSON value as a verdict; only a status of pass or fail makes it one.
func parseVerdict(data []byte) (*Verdict, bool) {
	var v Verdict
	if err := decode(data, &v); err != nil {
		return nil, false
	}
	v.Status = strings.ToLower(strings.TrimSpace(v.Status))
	if v.Status != "pass" && v.Status != "fail" {
		return nil, false
	}
	return &v, true
}

// fencedJSON matches a ```json fenced block, the way models most often wrap an answer.
var fencedJSON = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?s)```json[ \t]*\r?\n(.*?)\r?\n[ \t]*```") })

// ExtractVerdict finds the verdict in free text: the whole text when it is one, else the first
// ```json block that is one, else the last balanced {...} object that has a status.
func ExtractVerdict(text string) (*Verdict, bool) {
	trimmed := strings.TrimSpace(text)
	if v, ok := parseVerdict([]byte(trimmed)); ok {
		return v, true
	}
	for _, m := range fencedJSON().FindAllStringSubmatch(text, -1) {
		if v, ok := parseVerdict([]byte(m[1])); ok {
			return v, true
		}
	}
	budget := searchBudget(len(text))
	objects := balancedObjects([]byte(text))
	for i := len(objects) - 1; i >= 0 && budget.take(len(objects[i])); i-- {
		if v, ok := parseVerdict(objects[i]); ok {
			return v, true
		}
	}
	return nil, false
}

// parseBudget keeps the search for an answer linear in the output: nested objects overlap, and
// decoding each of 50,000 nested spans (`{"a":` repeated) would cost the square of the output.
// The answer is a small object near the end, found long before the budget runs out; a search
// that exhausts it finds no verdict, which is the reviewer's error, not the agent's failure.
type parseBudget struct{ left int }

func searchBudget(outputBytes int) *parseBudget { return &parseBudget{left: 2*outputBytes + 64<<10} }

func (b *parseBudget) take(n int) bool {
	if n > b.left {
		return false
	}
	b.left -= n
	return true
}

// balancedObjects returns every {...} span whose braces balance, ordered by where it ends, so
// that an enclosing object comes after the objects inside it. Quotes are only tracked inside
// braces: prose around an object may have unbalanced quotes of its own.
//
// Only the last maxSpans are kept: the search looks from the end and is bounded anyway.
func balancedObjects(text []byte) [][]byte {
	var spans [][]byte
	var open []int
	inString := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			case '\n':
				// JSON strings never span lines: this quote was prose, start over.
				inString = false
				open = open[:0]
			}
			continue
		}
		switch c {
		case '"':
			if len(open) > 0 {
				inString = true
			}
		case '{':
			open = append(open, i)
		case '}':
			if len(open) > 0 {
				start := open[len(open)-1]
				open = open[:len(open)-1]
				if len(spans) == 2*maxSpans {
					spans = append(spans[:0], spans[maxSpans:]...)
				}
				spans = append(spans, text[start:i+1])
			}
		}
	}
	if len(spans) > maxSpans {
		spans = spans[len(spans)-maxSpans:]
	}
	return spans
}

// maxSpans bounds the candidate objects kept from one output.
const maxSpans = 4096

// lastJSONObject returns the last balanced object that decodes into a map having one of keys.
func lastJSONObject(text []byte, keys ...string) map[string]json.RawMessage {
	budget := searchBudget(len(text))
	objects := balancedObjects(text)
	for i := len(objects) - 1; i >= 0 && budget.take(len(objects[i])); i-- {
		var m map[string]json.RawMessage
		if decode(objects[i], &m) != nil {
			continue
		}
		for _, k := range keys {
			if _, ok := m[k]; ok {
				return m
			}
		}
	}
	return nil
}
