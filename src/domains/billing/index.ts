/**
 * What other code may use of billing. Nothing yet: the composition roots wire its service,
 * providers and routes. When another domain needs a piece of this one, export it here.
 */
