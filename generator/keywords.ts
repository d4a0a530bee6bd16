// Custom annotation keywords carried by the generated JSON Schemas. Register them on every ajv
// instance that compiles those schemas (server validation, rjsf validator) so strict mode passes:
//   new Ajv({ keywords: schemaKeywords }) or ajv.addVocabulary(schemaKeywords)
export const schemaKeywords = [
  'x-type',           // FieldType of the field (string, text, reference, ...)
  'x-upperCase',      // true: the value is upper-cased (the form forces it, the server upper-cases)
  'x-patternMessage', // pt-BR message when pattern fails
  'x-reference',      // entity key of a reference / referenceList
  'x-enumNames',      // pt-BR labels of enum values (same order as enum)
  'x-optionsFrom',    // catalogue the choices come from ('permissions')
  'x-widget',         // json: core widget (questionnaire, answers)
  'x-label',          // pt-BR label (also in title)
  'x-rangeMessage',   // pt-BR message when a number is out of its limits (minimum, maximum, the zeroDisables gap)
  'x-message',        // pt-BR message of a cross-field rule (allOf item: if/then)
  'x-compare',        // cross-field comparisons [{ field, op, other, message }]; validated by compareKeyword (messages.ts)
] as const;
