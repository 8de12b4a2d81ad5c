package dev.watchkeeper.internal.api;

import dev.watchkeeper.internal.json.ObjectDecoder;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import okhttp3.Call;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Sends a built call and reads its answer without the client's own decoding, which rejects any field its model does
 * not know: an answer from an API server newer than the client would fail a call the server has carried out.
 */
public final class Calls {

    private Calls() {
    }

    /**
     * The object of {@code call}'s answer, decoded as the watchers decode objects ({@link #object(ApiClient, byte[],
     * Class)}).
     *
     * @throws ApiException as {@link #body(Call)}, or when the answer is not a {@code type} (saying what it is)
     */
    public static <T extends KubernetesObject> T object(ApiClient client, Call call, Class<T> type)
            throws ApiException {
        return object(client, body(call), type);
    }

    /**
     * The object {@code answer} holds, decoded as the watchers decode objects ({@link ObjectDecoder}): a field the
     * model does not know is skipped.
     *
     * @throws ApiException when the answer is not a {@code type}, saying what it is
     */
    public static <T extends KubernetesObject> T object(ApiClient client, byte[] answer, Class<T> type)
            throws ApiException {
        ObjectDecoder<T> decoder = new ObjectDecoder<>(client.getJSON().getGson(), type);
        T object = decoder.decode(answer);
        if (object == null) {
            throw new ApiException("the API server's answer is not a " + type.getSimpleName() + ": "
                    + decoder.problem(answer, null));
        }
        return object;
    }

    /**
     * The body of {@code call}'s answer.
     *
     * @throws ApiException what {@link ApiClient#execute} throws for the same failure: a non-2xx answer with its
     *                      code, headers and body, or the I/O failure as its cause
     */
    public static byte[] body(Call call) throws ApiException {
        try (Response response = call.execute()) {
            return body(response);
        } catch (IOException e) {
            throw new ApiException(e);
        }
    }

    /**
     * The body of {@code response}, which the caller closes.
     *
     * @throws ApiException for a non-2xx answer, with its code, headers and body
     * @throws IOException  when the body cannot be read
     */
    public static byte[] body(Response response) throws ApiException, IOException {
        ResponseBody body = response.body();
        byte[] bytes = body == null ? new byte[0] : body.bytes();
        if (!response.isSuccessful()) {
            throw new ApiException(response.message(), response.code(), response.headers().toMultimap(),
                    new String(bytes, StandardCharsets.UTF_8));
        }
        return bytes;
    }
}
