/**
 * The sources of the Java snippets of the README and {@code docs/} that show the starter's API, between
 * {@code // tag::name[]} and {@code // end::name[]}; {@code ReadmeSnippetsTest} keeps the docs equal to them, and
 * {@code AdopterCodeTest} keeps them on the public API. No component scan here ({@link ReadmeApplication} imports
 * what its tests need), so the sample's scan and the snippets' beans stay apart.
 */
package dev.watchkeeper.readme;
