/**
 * The sources of the README's Java snippets that show the test support, between {@code // tag::name[]} and
 * {@code // end::name[]}; {@code ReadmeSnippetsTest} (sample-app) keeps the README equal to them.
 */
package dev.watchkeeper.test.readme;
