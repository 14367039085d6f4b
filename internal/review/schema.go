package review

// verdictSchema is the JSON Schema of a verdict, for the CLIs that can hold the model to one
// (claude --json-schema, codex --output-schema). Every property is required and no other is
// allowed, which OpenAI's strict structured outputs insist on.
const verdictSchema = `{"type":"object",` +
	`"properties":{` +
	`"status":{"type":"string","enum":["pass","fail"]},` +
	`"findings":{"type":"array","items":{"type":"object",` +
	`"properties":{` +
	`"file":{"type":"string"},` +
	`"line":{"type":"integer"},` +
	`"severity":{"type":"string","enum":["error","warning"]},` +
	`"message":{"type":"string"}},` +
	`"required":["file","line","severity","message"],` +
	`"additionalProperties":false}}},` +
	`"required":["status","findings"],` +
	`"additionalProperties":false}`
