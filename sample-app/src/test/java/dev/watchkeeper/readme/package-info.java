/**
 * The sources of the README's Java snippets that show the starter's API, between {@code // tag::name[]} and
 * {@code // end::name[]}; {@code ReadmeSnippetsTest} keeps the README equal to them. A package of its own, so the
 * sample's component scan does not pick these beans up.
 */
package dev.watchkeeper.readme;
