/**
 * What other code may use of gdpr. Nothing yet: the composition roots wire its service and
 * routes. When another domain needs a piece of this one, export it here.
 */
