package dev.watchkeeper.crd.processor;

import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.ElementFilter;
import javax.tools.Diagnostic;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * Keeps the Javadoc of every class annotated {@code @KubernetesResource}, and of the classes its fields hold, as
 * {@code META-INF/watchkeeper/descriptions/<binary name>.properties} beside the compiled classes: the class's text
 * under the key {@code .}, each field's under its Java name. The CRD generator reads them as the schema's
 * descriptions. Classes compiled elsewhere (client-java's models, the JDK's) have no source here and are skipped.
 */
@SupportedAnnotationTypes(DescriptionsProcessor.RESOURCE_ANNOTATION)
public final class DescriptionsProcessor extends AbstractProcessor {

    static final String RESOURCE_ANNOTATION = "dev.watchkeeper.annotation.KubernetesResource";
    static final String LOCATION = "META-INF/watchkeeper/descriptions/";

    private final Set<String> visited = new HashSet<>();

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        for (TypeElement annotation : annotations) {
            for (Element annotated : round.getElementsAnnotatedWith(annotation)) {
                if (annotated instanceof TypeElement type) {
                    visit(type);
                }
            }
        }
        return false; // others may read @KubernetesResource too
    }

    private void visit(TypeElement type) {
        String name = processingEnv.getElementUtils().getBinaryName(type).toString();
        if (name.startsWith("java.") || !visited.add(name)) {
            return;
        }
        Properties descriptions = new Properties();
        String comment = processingEnv.getElementUtils().getDocComment(type);
        put(descriptions, ".", JavadocText.description(comment));
        if (type.getKind() == ElementKind.RECORD) { // its components are described by the record's @param tags
            JavadocText.parameters(comment).forEach((component, text) -> put(descriptions, component, text));
        }
        for (VariableElement field : ElementFilter.fieldsIn(type.getEnclosedElements())) {
            Set<Modifier> modifiers = field.getModifiers();
            if (!modifiers.contains(Modifier.STATIC) && !modifiers.contains(Modifier.TRANSIENT)) {
                put(descriptions, field.getSimpleName().toString(),
                        JavadocText.description(processingEnv.getElementUtils().getDocComment(field)));
                visitTypesIn(field.asType());
            }
        }
        visitTypesIn(type.getSuperclass());
        if (!descriptions.isEmpty()) {
            write(type, name, descriptions);
        }
    }

    /** The classes a field's type names: itself, its type arguments, an array's component. */
    private void visitTypesIn(TypeMirror type) {
        if (type instanceof ArrayType array) {
            visitTypesIn(array.getComponentType());
        } else if (type instanceof WildcardType wildcard && wildcard.getExtendsBound() != null) {
            visitTypesIn(wildcard.getExtendsBound());
        } else if (type.getKind() == TypeKind.DECLARED) {
            DeclaredType declared = (DeclaredType) type;
            if (declared.asElement() instanceof TypeElement element) {
                visit(element);
            }
            declared.getTypeArguments().forEach(this::visitTypesIn);
        }
    }

    private static void put(Properties descriptions, String key, String text) {
        if (!text.isEmpty()) {
            descriptions.setProperty(key, text);
        }
    }

    private void write(TypeElement type, String name, Properties descriptions) {
        try {
            StringWriter text = new StringWriter();
            descriptions.store(text, null);
            // store() starts with a date comment: left out, so a build of the same sources writes the same file
            String stable = text.toString().lines().filter(line -> !line.startsWith("#")).sorted()
                    .collect(Collectors.joining("\n", "", "\n"));
            FileObject file = processingEnv.getFiler()
                    .createResource(StandardLocation.CLASS_OUTPUT, "", LOCATION + name + ".properties", type);
            try (Writer out = file.openWriter()) {
                out.write(stable);
            }
        } catch (IOException e) {
            processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR,
                    "cannot write the descriptions of " + name + ": " + e.getMessage(), type);
        }
    }
}
