/**
 * The sources of the docs' Java snippets that show the test support, between {@code // tag::name[]} and
 * {@code // end::name[]}; {@code ReadmeSnippetsTest} (sample-app) keeps the docs equal to them, and
 * {@code ReadmeSnippetsUseTheApiTest} keeps them on the public API.
 */
package dev.watchkeeper.test.readme;
